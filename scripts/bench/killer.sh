#!/usr/bin/env bash
# Killer sudoku per engine: every puzzle of data/variants/killer-janko.json solved by the
# release binary, counting to two solutions, one CSV per engine; prints per engine the
# answers that are not the published solution (killer-X puzzles 196-198 read without their
# diagonals must be `multiple`), then over the 155 9x9 puzzles the median and the maximum of
# wall_s and of build_s + solve_s (thread CPU), in milliseconds, and the puzzle of the max.
#
#   scripts/bench/killer.sh [TIME_LIMIT_SECS] [ENGINE...]
#
# Defaults: a time limit of 10 s per puzzle; engines human, binary,
# binary:propagation=hidden, dlx, backtrack, bnb:order=lifo, bitmask. The runs and the check
# are scripts/bench/killer.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=${1:-10}
shift || true
engines=("$@")
[ ${#engines[@]} -gt 0 ] ||
    engines=(human binary binary:propagation=hidden dlx backtrack bnb:order=lifo bitmask)
set_file=data/variants/killer-janko.json
cargo build --release --quiet
python3 scripts/bench/killer.py "$set_file" "$limit" "${engines[@]}"
