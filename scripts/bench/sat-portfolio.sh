#!/usr/bin/env bash
# The portfolio backend (batsat and CaDiCaL racing, one thread each) beside each member alone,
# and `auto` (the default: the race on grids of side 64 or more with 5,000 variables or more,
# batsat below), the sat engine's default otherwise (`reduced`, amo=auto, counting to 2):
# - large grids, one process per grid, wall time as a user sees it: the published rk-16x16 ..
#   rk-144x144, gen-225x225, gen-400x400, and COUNT random 64x64 cuts with rk-64x64's 2,504
#   givens (`generate --size 64 --unchecked --clues 2504 --seed S`, as
#   sat-rk64-spread.sh), the heavy-tailed population a portfolio is meant for;
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
# sets"). The rounds and the tables are scripts/bench/sat-portfolio.py.
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
python3 scripts/bench/sat-portfolio.py "$rounds" "$count" "$limit" "$tmp" "${backends[@]}"
