#!/usr/bin/env bash
# How typical the published rk-64x64 is: the grid beside COUNT random cuts with the same side
# and the same number of givens (2,504 of 4,096, 61%): `sudolab generate --size 64 --unchecked
# --clues 2504 --seed S`, S = 1..COUNT, random full grids with the first cells of a random
# order removed, so a cut may have several solutions, never none, as rk-64x64 itself has.
# 61% is the easy-hard-easy peak of completion problems at this side (docs/benchmarks.md,
# sat-large-cuts.sh), where instances with the same parameters differ in search by
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
# The runs and the table are scripts/bench/sat-rk64-spread.py.
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
python3 scripts/bench/sat-rk64-spread.py "$bin" "$count" "$limit" "$tmp" "${backends[@]}"
