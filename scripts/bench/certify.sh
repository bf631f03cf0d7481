#!/usr/bin/env bash
# The certification targets, one process per input: `sudolab certify` (decide, prove, check
# each proof) and `sudolab certify --check` (check the bundle again from scratch), wall time
# and peak RSS from /usr/bin/time, throughput as the command prints it:
# - royle 17-clue (first 5,000) and forum-hardest-1106: puzzles per second;
# - generated unique 25x25 and 36x36 puzzles at 60% givens (`generate --seed 1`);
# - rk-81x81 and rk-100x100 (the sequential canonical form).
#
#   scripts/bench/certify.sh [THREADS]
#
# THREADS is passed to both commands (default: the machine's cores). Prints one table row per
# input and command.
set -euo pipefail
cd "$(dirname "$0")/../.."
threads=${1:-$(nproc)}
cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-target}/release/sudolab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head -n 5000 data/royle-17clue.txt >"$tmp/royle-17clue-5000.txt"
"$bin" generate --size 25 --clues 375 --count 1 --seed 1 -o "$tmp/gen-25x25-60.txt" 2>/dev/null
"$bin" generate --size 36 --clues 778 --count 1 --seed 1 -o "$tmp/gen-36x36-60.txt" 2>/dev/null
printf '| input | command | wall s | peak RSS MB | printed |\n|---|---|---:|---:|---|\n'
for input in "$tmp/royle-17clue-5000.txt" data/forum-hardest-1106.txt \
    "$tmp/gen-25x25-60.txt" "$tmp/gen-36x36-60.txt" data/rk-81x81.txt data/rk-100x100.txt; do
    name=$(basename "$input" .txt)
    for what in certify check; do
        if [ "$what" = certify ]; then
            args=(certify "$input" -o "$tmp/$name" --quiet --threads "$threads")
        else
            args=(certify --check "$tmp/$name" --threads "$threads")
        fi
        /usr/bin/time -f '%e %M' -o "$tmp/time" "$bin" "${args[@]}" >"$tmp/out" || true
        read -r wall rss <"$tmp/time"
        printf '| %s | %s | %s | %d | %s |\n' "$name" "$what" "$wall" $((rss / 1024)) \
            "$(tail -n 1 "$tmp/out")"
    done
done
