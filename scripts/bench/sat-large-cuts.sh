#!/usr/bin/env bash
# The sat engine's large-grid targets on a set, not on one instance: "rk-64x64 .. rk-144x144
# each end to end in under 0.3 s" and "225x225 and 400x400 puzzles with 60-80% givens
# answered by default in under 1 s and 5 s; peak RSS under 2 GB at 400x400".
#
#   scripts/bench/sat-large-cuts.sh [TIME_LIMIT] [COUNT] [ENGINE]
#
# Instances: data/rk-{64x64,81x81,100x100,144x144}.txt and data/gen-{225x225,400x400}.txt,
# then random cuts of random full grids (`sudolab generate --unchecked --clues K`: the cells
# removed are the first of a random order, so a cut may have several solutions, never none)
# at 58-62% givens of 64x64, 60-80% of 225x225 and 60-80% of 400x400, COUNT seeds each
# (default 2). Each puzzle is solved once by `solve FILE --engine ENGINE --csv --time-limit
# TIME_LIMIT` (default engine `sat`, its default options; default limit 20 s), one process per
# puzzle, one after the other. One row per puzzle: status, conflicts, build_s and solve_s
# from the CSV, and from the process itself (wait4) the wall time, user+system CPU and the
# peak RSS. On a shared machine the wall time is the process's share of the cores: read CPU
# beside it, with the load average printed at the start and the end. The runs and the table
# are scripts/bench/sat-large-cuts.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=${1:-20}
count=${2:-2}
engine=${3:-sat}
cargo build --release --quiet
# The binary cargo just built: under $CARGO_TARGET_DIR (relative to the repository) when set.
bin=${CARGO_TARGET_DIR:-target}/release/sudolab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=(data/rk-64x64.txt data/rk-81x81.txt data/rk-100x100.txt data/rk-144x144.txt
    data/gen-225x225.txt data/gen-400x400.txt)
for spec in 64:58 64:60 64:61 64:62 225:60 225:65 225:70 225:75 225:80 \
    400:60 400:65 400:70 400:75 400:80; do
    n=${spec%:*}
    pct=${spec#*:}
    for seed in $(seq 1 "$count"); do
        f="$tmp/cut-${n}x${n}-${pct}pct-s${seed}.txt"
        "$bin" generate --size "$n" --unchecked --clues $((n * n * pct / 100)) --seed "$seed" -o "$f"
        files+=("$f")
    done
done
python3 scripts/bench/sat-large-cuts.py "$engine" "$limit" "$tmp" "${files[@]}"
