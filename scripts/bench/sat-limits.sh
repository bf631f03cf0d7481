#!/usr/bin/env bash
# Measures how far past its time limit each SAT backend ends the work on a puzzle (issue 10,
# item 6: the promise is T + 10% + 0.2 s), on inputs that take minutes without a limit:
# data/rk-25x25.txt with the minimal encoding and several AMOs, with the givens as
# assumptions; and the empty 81x81 grid (2.9e7 literals with extended and amo=auto, 1.7e8
# with pairwise: most of the time goes into loading and freeing the solver), fresh and with
# incremental=true; through `solve`, and for one case of each kind through `verify` and `run`
# too. Prints one row per (command, backend, case): process wall time, CPU time, overshoot
# past T, the status, and whether the promise held; then the largest overshoot per backend.
#
#   scripts/bench/sat-limits.sh [T_SECS] [BACKEND...]
#
# Defaults: T = 2, backends varisat batsat cadical portfolio. Rows run one after the other in one
# invocation (same load); the load average is printed at the start and the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=${1:-2}
shift || true
backends=("$@")
[ ${#backends[@]} -gt 0 ] || backends=(varisat batsat cadical portfolio)
cargo build --release --quiet
# The binary cargo just built: under $CARGO_TARGET_DIR (relative to the repository) when set.
export SUDOLAB_BIN=${CARGO_TARGET_DIR:-target}/release/sudolab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -c "print('\n'.join([' '.join(['0'] * 81)] * 81))" >"$tmp/empty-81x81.txt"
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), T = ${limit} s"
python3 - "$limit" "$tmp" "${backends[@]}" <<'PY'
import csv, io, os, resource, subprocess, sys, time
limit, tmp, backends = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
bin = os.environ["SUDOLAB_BIN"]
rk = "data/rk-25x25.txt"
empty = f"{tmp}/empty-81x81.txt"
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
        csv.field_size_limit(1 << 30)
        rows = list(csv.DictReader(io.StringIO(p.stdout)))
        status = rows[0]["status"] if rows else f"exit {p.returncode}"
    elif cmd == "verify":
        status = "inconclusive" if "inconclusive" in p.stdout else f"exit {p.returncode}"
    else:
        status = f"exit {p.returncode}"
    ok = "kept" if wall <= promise else "BROKEN"
    print(f"{cmd:8} {backend:14} {case:34} {wall:8.3f} {c:8.3f} {wall - limit:8.3f} {status:12} {ok}", flush=True)
    return wall - limit
worst = {}
def note(backend, over):
    worst[backend] = max(worst.get(backend, -1e9), over)
for backend in backends:
    for case, path, extra in cases:
        note(backend, row("solve", backend, case, [bin, "solve", path, "--engine", "sat", "--backend", backend,
            "--max-solutions", "2", "--time-limit", str(limit), "--csv", *extra]))
for backend in backends:
    for k, (name, path, spec) in enumerate([
        ("rk25 minimal sequential", rk, f"sat:encoding=minimal,amo=sequential,backend={backend}"),
        ("empty 81x81 extended", empty, f"sat:encoding=extended,backend={backend}"),
    ]):
        note(backend, row("verify", backend, name, [bin, "verify", path, "--engines", spec,
            "--time-limit", str(limit)]))
        exp = f"{tmp}/limits-{backend}-{k}.toml"
        open(exp, "w").write(
            f'name = "limits"\nmax_solutions = 2\nthreads = 1\n\n[limits]\ntime = {limit}\n\n'
            f'[[datasets]]\npath = "{path}"\n\n[[engines]]\nspec = "{spec}"\n')
        note(backend, row("run", backend, name, [bin, "run", exp, "--out",
            f"{tmp}/limits-{backend}-{k}.csv", "--no-charts"]))
print(f"largest overshoot per backend (promise: {promise - limit:.3f} s over T = {limit} s):")
for backend in backends:
    print(f"  {backend:14} {worst[backend]:8.3f} s  {'kept' if worst[backend] <= promise - limit else 'BROKEN'}")
PY
echo "# end: load $(cut -d' ' -f1-3 /proc/loadavg)"
