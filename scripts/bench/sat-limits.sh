#!/usr/bin/env bash
# Measures how far past its time limit each SAT backend ends the work on a puzzle (the
# promise: T + 10% + 0.2 s), on inputs that take minutes without a limit:
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
# invocation (same load); the load average is printed at the start and the end. The runs and
# the table are scripts/bench/sat-limits.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=${1:-2}
shift || true
backends=("$@")
[ ${#backends[@]} -gt 0 ] || backends=(varisat batsat cadical portfolio)
cargo build --release --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 scripts/bench/sat-limits.py "$limit" "$tmp" "${backends[@]}"
