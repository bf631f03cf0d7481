#!/usr/bin/env python3
"""Makes the small sample puzzles in data/examples/ (6x6, 12x12, 9x9 jigsaw, 9x9 X-sudoku).

Each is cut from a random valid full grid by removing givens one at a time, in random order,
while the puzzle keeps exactly one solution; uniqueness is proven by `sudolab solve --engine
sat --max-solutions 2`. Deterministic for the seed below. Run from the repository root after
`cargo build --release`:  python3 scripts/data/make-samples.py
"""
import csv, io, random, subprocess, sys

SUDOLAB = "target/release/sudolab"
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
rng = random.Random(20261121)


def solve(line, extra, k):
    out = subprocess.run([SUDOLAB, "solve", "--engine", "sat", "--csv", "--max-solutions", str(k)] + extra,
                         input=line + "\n", capture_output=True, text=True, check=True).stdout
    row = next(csv.DictReader(io.StringIO(out)))
    return row["status"], int(row["solutions"]), row["solution"]


def boxed_grid(n, r, c):
    """Pattern grid for R x C boxes, shuffled by digit relabelling, rows within bands, bands,
    columns within stacks and stacks (all symmetries that keep boxes)."""
    base = [[(c * (i % r) + i // r + j) % n for j in range(n)] for i in range(n)]
    rows = [b * r + i for b in rng.sample(range(n // r), n // r) for i in rng.sample(range(r), r)]
    cols = [s * c + j for s in rng.sample(range(n // c), n // c) for j in rng.sample(range(c), c)]
    perm = rng.sample(range(n), n)
    return "".join(SYMBOLS[perm[base[i][j]]] for i in rows for j in cols)


def random_layout(n):
    """Jigsaw regions: 3x3 boxes perturbed by swapping cells between adjacent regions, keeping
    every region connected and of size n."""
    reg = [(i // n // 3) * 3 + (i % n) // 3 for i in range(n * n)]

    def connected(reg, r):
        cells = [i for i in range(n * n) if reg[i] == r]
        seen, stack = {cells[0]}, [cells[0]]
        while stack:
            x = stack.pop()
            for y in (x - n, x + n, x - 1 if x % n else -1, x + 1 if x % n < n - 1 else -1):
                if 0 <= y < n * n and reg[y] == r and y not in seen:
                    seen.add(y); stack.append(y)
        return len(seen) == n

    for _ in range(3000):
        a = rng.randrange(n * n)
        b = rng.choice([a - n, a + n, a - 1, a + 1])
        if not (0 <= b < n * n) or abs(a % n - b % n) > 1 or reg[a] == reg[b]:
            continue
        ra, rb = reg[a], reg[b]
        backs = [x for x in range(n * n) if reg[x] == rb and x != b and any(
            0 <= y < n * n and abs(x % n - y % n) <= 1 and reg[y] == ra for y in (x - n, x + n, x - 1, x + 1))]
        if not backs:
            continue
        x = rng.choice(backs)
        new = reg[:]; new[a] = rb; new[x] = ra
        if connected(new, ra) and connected(new, rb):
            reg = new
    return "".join("ABCDEFGHI"[r] for r in reg)


def reduce(full, extra):
    cells = list(range(len(full)))
    rng.shuffle(cells)
    p = list(full)
    for i in cells:
        keep = p[i]
        p[i] = "."
        status, count, _ = solve("".join(p) + extra[1], extra[0], 2)
        if status != "unique":
            p[i] = keep
    return "".join(p)


def full_grid_by_solving(n, extra, tail=""):
    """A full grid of a geometry the pattern cannot make (X, jigsaw): seed a few random givens
    and let the solver complete them; retry if that seed has no solution."""
    while True:
        g = ["."] * (n * n)
        for d in range(n):
            g[rng.randrange(n * n)] = SYMBOLS[d]
        status, count, sol = solve("".join(g) + tail, extra, 1)
        if count == 1:
            return sol


def main():
    out = {}
    out["6x6.txt"] = [reduce(boxed_grid(6, 2, 3), ([], "")) for _ in range(3)]
    out["12x12.txt"] = [reduce(boxed_grid(12, 3, 4), ([], "")) for _ in range(2)]
    xs = []
    for _ in range(3):
        full = full_grid_by_solving(9, ["--diagonals"])
        xs.append(reduce(full, (["--diagonals"], "")))
    out["x-9x9.txt"] = xs
    jig = []
    for _ in range(3):
        layout = random_layout(9)
        full = full_grid_by_solving(9, ["--format", "jigsaw"], " " + layout)
        jig.append(reduce(full, (["--format", "jigsaw"], " " + layout)) + " " + layout)
    out["jigsaw-9x9.txt"] = jig
    notes = {
        "6x6.txt": "6x6 (2x3 boxes)",
        "12x12.txt": "12x12 (3x4 boxes), digits 10-12 written A-C",
        "x-9x9.txt": "9x9 X-sudoku: read with --diagonals",
        "jigsaw-9x9.txt": "9x9 jigsaw: givens line, a space, then the region line",
    }
    for name, lines in out.items():
        with open(f"data/examples/{name}", "w") as f:
            f.write(f"# {notes[name]}; made by scripts/data/make-samples.py (seed 20261121):\n")
            f.write("# cut from random valid grids, every given needed, unique (proven by sudolab sat)\n")
            for l in lines:
                f.write(l + "\n")
        print(name, len(lines))


if __name__ == "__main__":
    main()
