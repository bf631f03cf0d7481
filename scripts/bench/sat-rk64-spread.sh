#!/usr/bin/env bash
# How typical the published rk-64x64 is: the grid beside COUNT random cuts with the same side
# and the same number of givens (2,504 of 4,096, 61%): `sudolab generate --size 64 --unchecked
# --clues 2504 --seed S`, S = 1..COUNT, random full grids with the first cells of a random
# order removed, so a cut may have several solutions, never none, as rk-64x64 itself has.
# 61% is the easy-hard-easy peak of completion problems at this side (docs/benchmarks.md,
# bench-sat-large-cuts.sh), where instances with the same parameters differ in search by
# orders of magnitude, so one instance's time says little on its own.
#
#   scripts/bench/sat-rk64-spread.sh [COUNT] [TIME_LIMIT] [BACKEND...]
#
# Only rk-64x64: rk-81x81, rk-100x100 and rk-144x144 are unique puzzles, a population that
# random cuts do not model (cuts at their givens, 60-66%, are not answered in 5 s, while the rk
# grids take at most 0.2 s), and unique puzzles drawn without bias (`generate --order random`)
# do not reach those givens in minutes at these sides.
#
# Every file is solved by `solve FILE --engine sat --option backend=B --csv --time-limit T`
# (default options otherwise, counting to 2), one process for rk-64x64 and one for all the
# cuts. Per backend: the CPU (build_s + solve_s) of rk-64x64, its rank among the cuts, and of
# the cuts the median, the 75th and 90th percentiles (nearest rank), the maximum, the time
# limits and the median conflicts (batsat only; empty where the backend exposes none). A cut
# stopped by the time limit counts as the limit. Defaults: 20 cuts, 20 s, backends batsat and
# cadical. The rank is among the COUNT + 1 grids; <0.3s counts the cuts under 0.3 s of CPU.
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-20}
limit=${2:-20}
shift $(($# < 2 ? $# : 2))
backends=("$@")
[ ${#backends[@]} -gt 0 ] || backends=(batsat cadical)
cargo build --release --quiet
# The binary cargo just built: under $CARGO_TARGET_DIR (relative to the repository) when set.
bin=${CARGO_TARGET_DIR:-target}/release/sudolab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $count cuts, ${limit} s, $(git rev-parse --short HEAD)"
python3 - "$bin" "$count" "$limit" "$tmp" "${backends[@]}" <<'PY'
import csv, io, math, statistics, subprocess, sys
csv.field_size_limit(1 << 30)
bin, count, limit, tmp, backends = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]

def solve(path, backend):
    args = [bin, "solve", path, "--engine", "sat", "--option", f"backend={backend}", "--csv",
            "--time-limit", limit]
    p = subprocess.run(args, capture_output=True, text=True, check=True)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    for r in rows:
        assert r["status"] in ("unique", "multiple", "time-limit"), (path, r["status"])
    return rows

def cpu(r):
    return float(limit) if r["status"] == "time-limit" else float(r["build_s"]) + float(r["solve_s"])

def rank(sorted_xs, q):
    return sorted_xs[max(0, math.ceil(q * len(sorted_xs)) - 1)]

rk = "data/rk-64x64.txt"
rk_rows = {backend: solve(rk, backend)[0] for backend in backends}
first = rk_rows[backends[0]]
clues = int(first["clues"])
cuts = f"{tmp}/cuts-64.txt"
with open(cuts, "w") as out:
    for seed in range(1, count + 1):
        p = subprocess.run([bin, "generate", "--size", "64", "--unchecked", "--clues",
                            str(clues), "--seed", str(seed)],
                           capture_output=True, text=True, check=True)
        out.write(p.stdout)
print(f"# rk-64x64: {clues} givens ({clues / 64 / 64:.1%}), {first['status']}")
print(f"{'backend':8} {'rk cpu_s':>8} {'rank':>6} {'median':>7} {'p75':>7} {'p90':>7} "
      f"{'max':>7} {'<0.3s':>6} {'TL':>3} {'med confl':>9}")
for backend in backends:
    rk_cpu = cpu(rk_rows[backend])
    rows = solve(cuts, backend)
    assert len(rows) == count, (cuts, len(rows))
    xs = sorted(cpu(r) for r in rows)
    below = sum(x < rk_cpu for x in xs)
    confl = [int(r["conflicts"]) for r in rows if r["conflicts"]]
    med_confl = f"{statistics.median(confl):9.0f}" if confl else f"{'':9}"
    fast = sum(x < 0.3 for x in xs)
    print(f"{backend:8} {rk_cpu:8.3f} {below + 1:>3}/{count + 1:<2} {statistics.median(xs):7.3f} "
          f"{rank(xs, 0.75):7.3f} {rank(xs, 0.9):7.3f} {xs[-1]:7.3f} {fast:>3}/{count:<2} "
          f"{sum(r['status'] == 'time-limit' for r in rows):3} {med_confl}", flush=True)
PY
echo "# $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
