#!/usr/bin/env bash
# Makes the puzzle sets of the two studies with `sudolab generate` (deterministic: the same
# seeds give byte-identical files on any machine), into data/generated/:
#
#   clues-9x9.txt    9x9, unique, exactly K clues for K = 20..45: 200 puzzles per K, except
#                    K = 20 (40 puzzles): random removal rarely gets that low (each K = 20
#                    puzzle takes ~3 s of retries; K = 21 ~0.3 s; K <= 19 is out of reach
#                    by this method in any reasonable time; 17 is the proven minimum).
#   scaling-N.txt    N x N with square or near-square boxes, N = 4, 6, 9, 12, 16, 25, 36, 49,
#                    64, 81, 100, 60 % of the cells given (rounded), unique, removal order
#                    singles-first at every side (so every puzzle is solved by naked and
#                    hidden singles alone; see docs/generate.md): 20 puzzles per size up to 16,
#                    10 at 25, 5 from 36 on. About 20 s of CPU, most of it at 100 (17 s
#                    wall at 100, 3.5 s at 81, load 5, 2026-11-24).
#   hardness-25-unique.txt     25x25 (5x5 boxes), unique, random removal order (one pass,
#                    checks by sat-incremental), 5 puzzles at each of 50, 55, ..., 90 % givens.
#   hardness-25-unchecked.txt  25x25, NOT checked for uniqueness (`generate --unchecked`: the
#                    first cells of a random order removed from a full grid, so most puzzles
#                    below about 45 % have several solutions), 5 puzzles at each of 5, 10, ...,
#                    90 % givens.
#   peak-N.txt       N x N for N = 25, 36, 49, 64, NOT checked for uniqueness (`generate
#                    --unchecked`), 3 puzzles at each of six shares of givens spaced 6 points
#                    apart around the hardness peak, which moves to more givens as N grows:
#                    30-60 % at 25, 36-66 % at 36, 42-72 % at 49, 48-78 % at 64.
#   killer-9.txt, killer-16.txt  killer puzzles with no givens (`generate --killer`, cages
#                    split until dlx proves the puzzle unique), 50 at 9x9 and 10 at 16x16,
#                    in the killer text format (docs/formats.md).
#
#   bash scripts/data/make-study-data.sh            # all
#   bash scripts/data/make-study-data.sh clues      # one (clues, scaling, hardness, peak, killer)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --locked --bin sudolab >&2
BIN=${CARGO_TARGET_DIR:-target}/release/sudolab
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
    for spec in 4:2x2:20 6:2x3:20 9:3x3:20 12:3x4:20 16:4x4:20 25:5x5:10 36:6x6:5 \
        49:7x7:5 64:8x8:5 81:9x9:5 100:10x10:5; do
        IFS=: read -r n box count <<<"$spec"
        k=$(( (n * n * 60 + 50) / 100 ))
        echo "size $n ($box): $count puzzles with $k clues" >&2
        "$BIN" generate --size "$n" --box "$box" --clues "$k" --count "$count" \
            --seed $((7000 + n)) --order singles-first --format grid -o "$OUT/scaling-$n.txt"
    done
fi

if [[ $what == all || $what == hardness ]]; then
    for kind in unique unchecked; do
        tmp=$(mktemp)
        : >"$tmp"
        if [[ $kind == unique ]]; then lo=50; else lo=5; fi
        for pct in $(seq "$lo" 5 90); do
            k=$(( (625 * pct + 50) / 100 ))
            echo "hardness 25x25 $kind: $pct % ($k clues), 5 puzzles" >&2
            if [[ $kind == unique ]]; then
                "$BIN" generate --size 25 --box 5x5 --clues "$k" --count 5 --seed $((2500 + pct)) \
                    --order random >>"$tmp"
            else
                "$BIN" generate --size 25 --box 5x5 --clues "$k" --count 5 --seed $((2500 + pct)) \
                    --unchecked >>"$tmp"
            fi
        done
        mv "$tmp" "$OUT/hardness-25-$kind.txt"
        chmod 644 "$OUT/hardness-25-$kind.txt"
    done
fi

if [[ $what == all || $what == peak ]]; then
    for spec in 25:30 36:36 49:42 64:48; do
        IFS=: read -r n lo <<<"$spec"
        tmp=$(mktemp)
        : >"$tmp"
        for pct in $(seq "$lo" 6 $((lo + 30))); do
            k=$(( (n * n * pct + 50) / 100 ))
            echo "peak ${n}x${n}: $pct % ($k clues), 3 puzzles" >&2
            "$BIN" generate --size "$n" --clues "$k" --count 3 --seed $((n * 100 + pct)) \
                --unchecked >>"$tmp"
        done
        mv "$tmp" "$OUT/peak-$n.txt"
        chmod 644 "$OUT/peak-$n.txt"
    done
fi

if [[ $what == all || $what == killer ]]; then
    echo "killer 9x9: 50 puzzles; 16x16: 10 puzzles" >&2
    "$BIN" generate --killer --size 9 --count 50 --seed 1 >"$OUT/killer-9.txt"
    "$BIN" generate --killer --size 16 --count 10 --seed 1 >"$OUT/killer-16.txt"
    chmod 644 "$OUT/killer-9.txt" "$OUT/killer-16.txt"
fi
