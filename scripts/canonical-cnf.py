#!/usr/bin/env python3
"""Writes the canonical formula of one certificate (docs/certify.md) as DIMACS, from its
bundle entry alone: `canonical-cnf.py DIR/certificates.jsonl LINE > f.cnf`. A `unique` entry
gets its blocking clause. Shares no code with sudolab; the proof is then checked with any
DRAT checker: `drat-trim f.cnf DIR/proofs/....drat` or `rate f.cnf DIR/proofs/....drat`."""
import json, sys
e = json.loads(open(sys.argv[1]).read().splitlines()[int(sys.argv[2]) - 1])
n, seq = e["size"], e["formula"] == "sequential"
def grid(t):  # one symbol per cell up to side 35, else decimal numbers
    return [0 if s in ".0" else int(s, 36) for s in t.strip()] if n <= 35 and not any(
        c.isspace() for c in t.strip()) else [0 if s == "." else int(s) for s in t.split()]
v = lambda cell, d: cell * n + d
if e["regions"] is None: br, bc = map(int, e["box"].split("x")); reg = [(i // n // br) * (n // bc) + i % n // bc for i in range(n * n)]
else: reg = e["regions"]
firsts = sorted(set(reg), key=reg.index)
houses = [[r * n + c for c in range(n)] for r in range(n)] + [[r * n + c for r in range(n)] for c in range(n)]
houses += [[i for i in range(n * n) if reg[i] == r] for r in firsts]
if e["variant"].endswith("x"): houses += [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
groups = [[v(c, d) for d in range(1, n + 1)] for c in range(n * n)] + [[v(c, d) for c in h] for h in houses for d in range(1, n + 1)]
cls, aux = [], n ** 3
for x in groups:
    cls.append(x)
    if not seq: cls += [[-a, -b] for i, a in enumerate(x) for b in x[i + 1:]]; continue
    s = list(range(aux + 1, aux + n)); aux += n - 1
    if n > 1: cls += [[-x[0], s[0]]] + [c for i in range(1, n - 1) for c in ([-x[i], s[i]], [-s[i - 1], s[i]], [-x[i], -s[i - 1]])] + [[-x[-1], -s[-1]]]
g = grid(e["puzzle"])
cls += [[v(c, g[c])] for c in range(n * n) if g[c]]
if e["verdict"] == "unique": sol = grid(e["solutions"][0]); cls.append([-v(c, sol[c]) for c in range(n * n) if not g[c]])
print(f"p cnf {aux} {len(cls)}"); sys.stdout.write("".join(" ".join(map(str, c)) + " 0\n" for c in cls))
