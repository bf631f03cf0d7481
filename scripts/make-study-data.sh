#!/usr/bin/env bash
# Makes the puzzle sets of the two studies with `sudolab generate` (deterministic: the same
# seeds give byte-identical files on any machine), into data/generated/:
#
#   clues-9x9.txt    9x9, unique, exactly K clues for K = 20..45: 200 puzzles per K, except
#                    K = 20 (40 puzzles): random removal rarely gets that low (each K = 20
#                    puzzle takes ~3 s of retries; K = 21 ~0.3 s; K <= 19 is out of reach
#                    by this method in any reasonable time; 17 is the proven minimum).
#   scaling-N.txt    N x N with square or near-square boxes, N = 4, 6, 9, 12, 16, 25, 36,
#                    55 % of the cells given (rounded), unique: 20 puzzles per size up to 16,
#                    10 at 25, 5 at 36. At 50 % the 36x36 uniqueness checks stop being
#                    practical (see docs/generate.md).
#
#   bash scripts/make-study-data.sh            # both
#   bash scripts/make-study-data.sh clues      # one
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --bin sudolab >&2
BIN=target/release/sudolab
OUT=data/generated
mkdir -p "$OUT"
what=${1:-all}

if [[ $what == all || $what == clues ]]; then
    tmp=$(mktemp)
    : >"$tmp"
    for k in $(seq 20 45); do
        count=200
        [[ $k == 20 ]] && count=40
        echo "clues $k: $count puzzles" >&2
        "$BIN" generate --size 9 --clues "$k" --count "$count" --seed $((9000 + k)) \
            --attempts 1000000 >>"$tmp"
    done
    mv "$tmp" "$OUT/clues-9x9.txt"
    chmod 644 "$OUT/clues-9x9.txt"
fi

if [[ $what == all || $what == scaling ]]; then
    for spec in 4:2x2:20 6:2x3:20 9:3x3:20 12:3x4:20 16:4x4:20 25:5x5:10 36:6x6:5; do
        IFS=: read -r n box count <<<"$spec"
        k=$(( (n * n * 55 + 50) / 100 ))
        echo "size $n ($box): $count puzzles with $k clues" >&2
        "$BIN" generate --size "$n" --box "$box" --clues "$k" --count "$count" \
            --seed $((7000 + n)) --format grid -o "$OUT/scaling-$n.txt"
    done
fi
