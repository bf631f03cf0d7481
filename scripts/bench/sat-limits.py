"""The runs and the table of sat-limits.sh (see its header): how far past the time limit T
each run ends, through `solve`, `verify` and `run`.

    python3 scripts/bench/sat-limits.py T_SECS TMP_DIR BACKEND...

The empty 81x81 grid and the experiment files of the `run` rows are written to TMP_DIR.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

limit, tmp, backends = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
bin = benchlib.sudolab_bin()
rk = "data/rk-25x25.txt"
empty = f"{tmp}/empty-81x81.txt"
with open(empty, "w") as f:
    f.write("\n".join([" ".join(["0"] * 81)] * 81) + "\n")
cases = [
    ("rk25 minimal pairwise", rk, ["--encoding", "minimal", "--amo", "pairwise"]),
    ("rk25 minimal sequential", rk, ["--encoding", "minimal", "--amo", "sequential"]),
    ("rk25 minimal commander", rk, ["--encoding", "minimal", "--amo", "commander"]),
    ("rk25 minimal givens=assumptions", rk, ["--encoding", "minimal", "--givens", "assumptions"]),
    ("empty 81x81 extended", empty, ["--encoding", "extended"]),
    ("empty 81x81 extended pairwise", empty, ["--encoding", "extended", "--amo", "pairwise"]),
    ("empty 81x81 incremental", empty, ["--option", "incremental=true"]),
]
promise = limit * 1.1 + 0.2
print(benchlib.header(f"T = {sys.argv[1]} s"))
# wall_s: the process, start to exit; cpu_s: its user + system time (on a loaded machine the
# wall time stretches with the load, the CPU time does not); over_s = wall_s - T.
print(f"{'command':8} {'backend':14} {'case':34} {'wall_s':>8} {'cpu_s':>8} {'over_s':>8}"
      f" {'status':12} promise", flush=True)


def row(cmd, backend, case, args):
    out = os.path.join(tmp, "out.txt")
    with open(out, "w") as f:
        t = benchlib.run_timed(args, stdout=f)
    with open(out) as f:
        text = f.read()
    if cmd == "solve":
        rows = benchlib.parse_rows(text)
        status = rows[0]["status"] if rows else f"exit {t.returncode}"
    elif cmd == "verify":
        status = "inconclusive" if "inconclusive" in text else f"exit {t.returncode}"
    else:
        status = f"exit {t.returncode}"
    ok = "kept" if t.wall <= promise else "BROKEN"
    print(f"{cmd:8} {backend:14} {case:34} {t.wall:8.3f} {t.cpu:8.3f} {t.wall - limit:8.3f}"
          f" {status:12} {ok}", flush=True)
    return t.wall - limit


worst = {}


def note(backend, over):
    worst[backend] = max(worst.get(backend, -1e9), over)


for backend in backends:
    for case, path, extra in cases:
        note(backend, row("solve", backend, case, [
            bin, "solve", path, "--engine", "sat", "--backend", backend, "--max-solutions", "2",
            "--time-limit", str(limit), "--csv", *extra]))
for backend in backends:
    for k, (name, path, spec) in enumerate([
        ("rk25 minimal sequential", rk, f"sat:encoding=minimal,amo=sequential,backend={backend}"),
        ("empty 81x81 extended", empty, f"sat:encoding=extended,backend={backend}"),
    ]):
        note(backend, row("verify", backend, name, [bin, "verify", path, "--engines", spec,
                                                    "--time-limit", str(limit)]))
        exp = f"{tmp}/limits-{backend}-{k}.toml"
        with open(exp, "w") as f:
            f.write(f'name = "limits"\nmax_solutions = 2\nthreads = 1\n\n[limits]\n'
                    f'time = {limit}\n\n[[datasets]]\npath = "{path}"\n\n[[engines]]\n'
                    f'spec = "{spec}"\n')
        note(backend, row("run", backend, name, [bin, "run", exp, "--out",
                                                 f"{tmp}/limits-{backend}-{k}.csv",
                                                 "--no-charts"]))
print(f"largest overshoot per backend (promise: {promise - limit:.3f} s over T = {limit} s):")
for backend in backends:
    print(f"  {backend:14} {worst[backend]:8.3f} s  "
          f"{'kept' if worst[backend] <= promise - limit else 'BROKEN'}")
print(benchlib.load_after())
