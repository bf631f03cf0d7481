#!/usr/bin/env python3
"""Large boxed puzzles for the SAT-at-scale study (issue 10): a solved grid cut to a share of
givens.

The solved grid is the pattern grid of side N = B*B, cell (r, c) = (B*(r % B) + r//B + c) % N
+ 1, which is valid for B x B boxes, shuffled by moves that keep it valid: rows permuted
within each band and bands permuted, columns within each stack and stacks permuted, digits
relabelled. Then each cell is kept as a given with probability FRACTION (exactly
round(FRACTION * N*N) givens, chosen by a shuffle). Everything comes from one seeded
random.Random, so a (side, fraction, seed) triple always gives the same file. The puzzles are
not checked for uniqueness (counting to 2 tells).

Output: N rows of N integers separated by single spaces, `.` for an empty cell (the format of
the rk-*.txt files), with `#` comment lines saying how the file was made.

    python3 scripts/data/make-large.py --side 225 --fraction 0.75 --seed 1 -o data/gen-225x225.txt
"""
import argparse
import math
import random
import sys


def solved_grid(b, rng):
    n = b * b
    bands = list(range(b))
    rng.shuffle(bands)
    rows = [band * b + r for band in bands for r in rng.sample(range(b), b)]
    stacks = list(range(b))
    rng.shuffle(stacks)
    cols = [stack * b + c for stack in stacks for c in rng.sample(range(b), b)]
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    return [
        [digits[(b * (r % b) + r // b + c) % n] for c in cols]
        for r in rows
    ]


def check(grid, b):
    n = b * b
    full = set(range(1, n + 1))
    for i in range(n):
        assert set(grid[i]) == full, f"row {i}"
        assert {grid[r][i] for r in range(n)} == full, f"column {i}"
    for br in range(b):
        for bc in range(b):
            cells = {grid[br * b + r][bc * b + c] for r in range(b) for c in range(b)}
            assert cells == full, f"box {br},{bc}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--side", type=int, required=True, help="N, a square (225, 400, ...)")
    ap.add_argument("--fraction", type=float, required=True, help="share of givens, 0..1")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", help="output file (default: standard output)")
    a = ap.parse_args()
    b = math.isqrt(a.side)
    if b * b != a.side or b < 1:
        sys.exit(f"--side {a.side}: not a square (boxes are sqrt(N) x sqrt(N))")
    if not 0.0 <= a.fraction <= 1.0:
        sys.exit(f"--fraction {a.fraction}: not between 0 and 1")
    rng = random.Random(a.seed)
    n = a.side
    grid = solved_grid(b, rng)
    check(grid, b)
    cells = list(range(n * n))
    rng.shuffle(cells)
    keep = set(cells[: round(a.fraction * n * n)])
    out = open(a.output, "w") if a.output else sys.stdout
    out.write(
        f"# {n}x{n}, {b}x{b} boxes, {len(keep)} givens ({100 * len(keep) / (n * n):.0f}%): "
        f"pattern grid shuffled within bands/stacks, digits relabelled, givens cut at random\n"
        f"# made by: python3 scripts/data/make-large.py --side {n} --fraction {a.fraction} "
        f"--seed {a.seed}\n"
    )
    for r in range(n):
        out.write(
            " ".join(str(grid[r][c]) if r * n + c in keep else "." for c in range(n)) + "\n"
        )


if __name__ == "__main__":
    main()
