#!/usr/bin/env bash
# The portfolio backend (batsat and CaDiCaL racing, one thread each) beside each member alone,
# and `auto` (the default: the race on grids of side 64 or more with 5,000 variables or more,
# batsat below), the sat engine's default otherwise (`reduced`, amo=auto, counting to 2):
# - large grids, one process per grid, wall time as a user sees it: the published rk-16x16 ..
#   rk-144x144, gen-225x225, gen-400x400, and COUNT random 64x64 cuts with rk-64x64's 2,504
#   givens (`generate --size 64 --unchecked --clues 2504 --seed S`, as
#   bench-sat-rk64-spread.sh), the heavy-tailed population a portfolio is meant for;
# - the 9x9 sets (royle 17-clue, first 3,000; magictour-top1465; forum-hardest-1106) and the
#   generated sets of data/generated (16x16 .. 100x100), one process per set, where a race
#   costs two threads per puzzle that reaches a solver.
#
#   scripts/bench/sat-portfolio.sh [ROUNDS] [COUNT] [TIME_LIMIT] [BACKEND...]
#
# The backends run one after the other on each input, in every round, so load drifts hit them
# alike. Per backend and input: the median over the rounds of the process wall time and of the
# CPU (build_s + solve_s summed over the rows; a portfolio's includes every member's thread).
# For the cuts: the median, 75th and 90th percentile (nearest rank) and sum of the per-cut
# medians, and how many are under 0.3 s of wall time; a cut that ends at the time limit counts
# as the limit. Last, for the portfolio, how often each member won over the grids and cuts.
# Defaults: 3 rounds, 30 cuts, 10 s, backends batsat cadical portfolio auto.
#
# Environment: CUTS, the cut populations as SIDE:CLUES words (default "64:2504"; COUNT cuts
# each, seeds 1..COUNT), e.g. CUTS="36:686 49:1392" for the 36x36 and 49x49 grids just above
# their hardness peak (53% and 58% givens); SECTIONS, the parts to run (default "grids cuts
# sets").
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
count=${2:-30}
limit=${3:-10}
shift $(($# < 3 ? $# : 3))
backends=("$@")
[ ${#backends[@]} -gt 0 ] || backends=(batsat cadical portfolio auto)
cargo build --release --quiet
# The binary cargo just built: under $CARGO_TARGET_DIR (relative to the repository) when set.
export SUDOLAB_BIN=${CARGO_TARGET_DIR:-target}/release/sudolab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head -n 3000 data/royle-17clue.txt >"$tmp/royle-17clue-3000.txt"
export CUTS=${CUTS:-64:2504} SECTIONS=${SECTIONS:-grids cuts sets}
for cut in $CUTS; do
  side=${cut%%:*} clues=${cut##*:}
  for seed in $(seq 1 "$count"); do
    "$SUDOLAB_BIN" generate --size "$side" --unchecked --clues "$clues" --seed "$seed" \
      >"$tmp/cut-$side-$clues-$seed.txt"
  done
done
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $rounds rounds, $count cuts of $CUTS, ${limit} s, $(git rev-parse --short HEAD)"
python3 - "$rounds" "$count" "$limit" "$tmp" "${backends[@]}" <<'PY'
import collections, csv, io, math, os, statistics, subprocess, sys, time
csv.field_size_limit(1 << 30)
rounds, count, limit, tmp, backends = (int(sys.argv[1]), int(sys.argv[2]), sys.argv[3],
                                       sys.argv[4], sys.argv[5:])
sections = os.environ["SECTIONS"].split()
populations = [tuple(map(int, c.split(":"))) for c in os.environ["CUTS"].split()]
grids = [f"data/{g}.txt" for g in ("rk-16x16", "rk-25x25", "rk-64x64", "rk-81x81",
                                   "rk-100x100", "rk-144x144", "gen-225x225", "gen-400x400")]
sets = [f"{tmp}/royle-17clue-3000.txt", "data/magictour-top1465.txt",
        "data/forum-hardest-1106.txt"]
generated = [f"data/generated/{s}.txt" for s in
             ("scaling-16", "scaling-25", "hardness-25-unique", "hardness-25-unchecked",
              "scaling-36", "scaling-49", "scaling-64", "scaling-81", "scaling-100")]
wins = {b: collections.Counter() for b in backends}

def solve(path, backend):
    args = [os.environ["SUDOLAB_BIN"], "solve", path, "--engine", "sat", "--csv",
            "--max-solutions", "2", "--time-limit", limit, "--option", f"backend={backend}"]
    t0 = time.monotonic()
    p = subprocess.run(args, capture_output=True, text=True, check=True)
    wall = time.monotonic() - t0
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    timed_out = 0
    cpu = 0.0
    for r in rows:
        assert r["status"] in ("unique", "multiple", "unsat", "time-limit"), (path, r["status"])
        timed_out += r["status"] == "time-limit"
        cpu += float(r["build_s"]) + float(r["solve_s"])
        for kv in r["counters"].split(";"):
            if kv.startswith("portfolio_winner="):
                wins[backend][kv.split("=")[1]] += 1
    if timed_out:
        wall = max(wall, float(limit))
    return wall, cpu, timed_out

def measure(paths):
    got = {(p, b): [] for p in paths for b in backends}
    for _ in range(rounds):
        for p in paths:
            for b in backends:
                got[(p, b)].append(solve(p, b))
    med = lambda xs: statistics.median(xs)
    return {k: (med([x[0] for x in v]), med([x[1] for x in v]), max(x[2] for x in v))
            for k, v in got.items()}

def rank(xs, q):
    return xs[max(0, math.ceil(q * len(xs)) - 1)]

head = " ".join(f"{b[:10]:>10} wall {'cpu':>6}" for b in backends)
if "grids" in sections:
    print(f"{'grid':24} {head}")
    res = measure(grids)
    for p in grids:
        cells = " ".join(f"{res[(p, b)][0]:15.3f} {res[(p, b)][1]:6.3f}" for b in backends)
        print(f"{os.path.basename(p):24} {cells}", flush=True)
for side, clues in populations if "cuts" in sections else []:
    cuts = [f"{tmp}/cut-{side}-{clues}-{s}.txt" for s in range(1, count + 1)]
    res = measure(cuts)
    print(f"{count} random {side}x{side} cuts with {clues} givens "
          f"({100 * clues / side ** 2:.0f}%): per-cut median wall (and CPU) over the rounds")
    print(f"{'backend':10} {'median':>7} {'p75':>7} {'p90':>7} {'sum':>8} {'CPU sum':>8} "
          f"{'<0.3s':>6} {'TL':>3}")
    for b in backends:
        ws = sorted(res[(p, b)][0] for p in cuts)
        cs = sum(res[(p, b)][1] for p in cuts)
        tl = sum(res[(p, b)][2] > 0 for p in cuts)
        print(f"{b:10} {statistics.median(ws):7.3f} {rank(ws, .75):7.3f} {rank(ws, .9):7.3f} "
              f"{sum(ws):8.2f} {cs:8.2f} {sum(w < 0.3 for w in ws):>3}/{count:<2} {tl:3}",
              flush=True)
if "sets" in sections:
    print(f"{'set':24} {head}")
    res = measure(sets + generated)
    for p in sets + generated:
        cells = " ".join(f"{res[(p, b)][0]:15.3f} {res[(p, b)][1]:6.3f}" for b in backends)
        print(f"{os.path.basename(p):24} {cells}", flush=True)
for b in backends:
    if wins[b]:
        print(f"# {b}: rows by winning member (from 1; 0: answered without a race): "
              + ", ".join(f"{k}: {v}" for k, v in sorted(wins[b].items())))
PY
echo "# $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
