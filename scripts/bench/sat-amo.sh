#!/usr/bin/env bash
# The rule of `amo=auto` (pairwise for groups of at most K literals, bimander above, K = 32),
# measured by moving the threshold: `amo=auto:K` for K = 0 (every group bimander), 8, 16, 32
# (the default), 64, 128 and "pairwise" (no group bimander).
#
#   scripts/bench/sat-amo.sh [ROUNDS] [TIME_LIMIT] [BACKEND]
#
# Instances and why:
# - `reduced` (the default encoding) on the published and generated large grids rk-25x25 ..
#   gen-400x400: the groups left after singles, the case the rule is for;
# - `optimized` on the same grids: larger groups (every candidate the givens leave);
# - `extended` on random cuts at 60% givens of sides 16, 25, 36, 49 and 64
#   (scripts/data/make-large.py, seed 1): every group has exactly N literals, so each row is one
#   group size.
# Every configuration runs once per round, interleaved, so load drifts hit them alike. The
# table gives, per instance, each threshold's median CPU (build_s + solve_s, ms) over the
# rounds and the formula's clauses at K = 32 vs pairwise; a run that ends at the time limit
# (default 10 s, wall clock) is shown as TL. The last line sums each column (TL counted as
# the limit): the rule holds where K = 32 is the best sum or within noise of it.
# Defaults: 3 rounds, 10 s, batsat (the default backend). The rounds and the table are
# scripts/bench/sat-amo.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
limit=${2:-10}
backend=${3:-batsat}
cargo build --release --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in 16 25 36 49 64; do
    python3 scripts/data/make-large.py --side "$n" --fraction 0.6 --seed 1 -o "$tmp/cut-$n.txt"
done
python3 scripts/bench/sat-amo.py "$rounds" "$limit" "$backend" "$tmp"
