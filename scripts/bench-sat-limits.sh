#!/usr/bin/env bash
# Measures how far past its time limit each SAT backend ends the work on a puzzle (issue 10,
# item 6: the promise is T + 10% + 0.2 s), on inputs that take minutes without a limit:
# data/rk-25x25.txt with the minimal encoding and several AMOs, with the givens as
# assumptions, and the empty 81x81 grid; through `solve`, and for one case through `verify`
# and `run` too. Prints one row per (command, backend, case): process wall time, overshoot
# past T, the status, and whether the promise held.
#
#   scripts/bench-sat-limits.sh [T_SECS] [BACKEND...]
#
# Defaults: T = 2, backends varisat batsat cadical. Rows run one after the other in one
# session (same load); the load average is printed at the start and the end.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-2}
shift || true
backends=("$@")
[ ${#backends[@]} -gt 0 ] || backends=(varisat batsat cadical)
cargo build --release --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -c "print('\n'.join([' '.join(['0'] * 81)] * 81))" >"$tmp/empty-81x81.txt"
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), T = ${limit} s"
python3 - "$limit" "$tmp" "${backends[@]}" <<'PY'
import csv, io, resource, subprocess, sys, time
limit, tmp, backends = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
bin = "target/release/sudolab"
rk = "data/rk-25x25.txt"
cases = [
    ("rk25 minimal pairwise", rk, ["--encoding", "minimal", "--amo", "pairwise"]),
    ("rk25 minimal sequential", rk, ["--encoding", "minimal", "--amo", "sequential"]),
    ("rk25 minimal commander", rk, ["--encoding", "minimal", "--amo", "commander"]),
    ("rk25 minimal givens=assumptions", rk, ["--encoding", "minimal", "--givens", "assumptions"]),
    ("empty 81x81 extended", f"{tmp}/empty-81x81.txt", ["--encoding", "extended"]),
]
promise = limit * 1.1 + 0.2
# wall_s: the process, start to exit; cpu_s: its user + system time (on a loaded machine the
# wall time stretches with the load, the CPU time does not); over_s = wall_s - T.
print(f"{'command':8} {'backend':14} {'case':34} {'wall_s':>8} {'cpu_s':>8} {'over_s':>8} {'status':12} promise")
def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
def row(cmd, backend, case, args):
    c = cpu()
    t = time.perf_counter()
    p = subprocess.run(args, capture_output=True, text=True)
    wall = time.perf_counter() - t
    c = cpu() - c
    status = "?"
    if cmd == "solve":
        rows = list(csv.DictReader(io.StringIO(p.stdout)))
        status = rows[0]["status"] if rows else f"exit {p.returncode}"
    elif cmd == "verify":
        status = "inconclusive" if "inconclusive" in p.stdout else f"exit {p.returncode}"
    else:
        status = f"exit {p.returncode}"
    ok = "kept" if wall <= promise else "BROKEN"
    print(f"{cmd:8} {backend:14} {case:34} {wall:8.3f} {c:8.3f} {wall - limit:8.3f} {status:12} {ok}", flush=True)
for backend in backends:
    for case, path, extra in cases:
        row("solve", backend, case, [bin, "solve", path, "--engine", "sat", "--backend", backend,
            "--max-solutions", "2", "--time-limit", str(limit), "--csv", *extra])
for backend in backends:
    spec = f"sat:encoding=minimal,amo=sequential,backend={backend}"
    row("verify", backend, "rk25 minimal sequential", [bin, "verify", rk, "--engines", spec,
        "--time-limit", str(limit)])
    exp = f"{tmp}/limits-{backend}.toml"
    open(exp, "w").write(
        f'name = "limits"\nmax_solutions = 2\nthreads = 1\n\n[limits]\ntime = {limit}\n\n'
        f'[[datasets]]\npath = "{rk}"\n\n[[engines]]\nspec = "{spec}"\n')
    row("run", backend, "rk25 minimal sequential", [bin, "run", exp, "--out",
        f"{tmp}/limits-{backend}.csv", "--no-charts"])
PY
echo "# end: load $(cut -d' ' -f1-3 /proc/loadavg)"
