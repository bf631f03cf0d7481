"""The interleaved rounds and the tables of sat-portfolio.sh (see its header).

    python3 scripts/bench/sat-portfolio.py ROUNDS COUNT TIME_LIMIT TMP_DIR BACKEND...

TMP_DIR holds royle-17clue-3000.txt and the cuts, cut-SIDE-CLUES-SEED.txt; the environment
gives CUTS and SECTIONS as for the shell script.
"""
import collections
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

rounds, count, limit, tmp, backends = (int(sys.argv[1]), int(sys.argv[2]), sys.argv[3],
                                       sys.argv[4], sys.argv[5:])
sections = os.environ["SECTIONS"].split()
print(benchlib.header(f"{rounds} rounds, {count} cuts of {os.environ['CUTS']}, {limit} s"),
      flush=True)
populations = [tuple(map(int, c.split(":"))) for c in os.environ["CUTS"].split()]
grids = [f"data/{g}.txt" for g in ("rk-16x16", "rk-25x25", "rk-64x64", "rk-81x81",
                                   "rk-100x100", "rk-144x144", "gen-225x225", "gen-400x400")]
sets = [f"{tmp}/royle-17clue-3000.txt", "data/magictour-top1465.txt",
        "data/forum-hardest-1106.txt"]
generated = [f"data/generated/{s}.txt" for s in
             ("scaling-16", "scaling-25", "hardness-25-unique", "hardness-25-unchecked",
              "scaling-36", "scaling-49", "scaling-64", "scaling-81", "scaling-100")]
wins = {b: collections.Counter() for b in backends}


def solve(path, backend):
    t0 = time.monotonic()
    rows = benchlib.solve(path, "--engine", "sat", "--max-solutions", "2", "--time-limit", limit,
                          "--option", f"backend={backend}")
    wall = time.monotonic() - t0
    timed_out = 0
    cpu = 0.0
    for r in rows:
        assert r["status"] in benchlib.ANSWERED + ("time-limit",), (path, r["status"])
        timed_out += r["status"] == "time-limit"
        cpu += benchlib.cpu(r)
        for kv in r["counters"].split(";"):
            if kv.startswith("portfolio_winner="):
                wins[backend][kv.split("=")[1]] += 1
    if timed_out:
        wall = max(wall, float(limit))
    return wall, cpu, timed_out


def measure(paths):
    got = {(p, b): [] for p in paths for b in backends}
    for _ in range(rounds):
        for p in paths:
            for b in backends:
                got[(p, b)].append(solve(p, b))
    med = benchlib.median
    return {k: (med([x[0] for x in v]), med([x[1] for x in v]), max(x[2] for x in v))
            for k, v in got.items()}


head = " ".join(f"{b[:10]:>10} wall {'cpu':>6}" for b in backends)
if "grids" in sections:
    print(f"{'grid':24} {head}")
    res = measure(grids)
    for p in grids:
        cells = " ".join(f"{res[(p, b)][0]:15.3f} {res[(p, b)][1]:6.3f}" for b in backends)
        print(f"{os.path.basename(p):24} {cells}", flush=True)
for side, clues in populations if "cuts" in sections else []:
    cuts = [f"{tmp}/cut-{side}-{clues}-{s}.txt" for s in range(1, count + 1)]
    res = measure(cuts)
    print(f"{count} random {side}x{side} cuts with {clues} givens "
          f"({100 * clues / side ** 2:.0f}%): per-cut median wall (and CPU) over the rounds")
    print(f"{'backend':10} {'median':>7} {'p75':>7} {'p90':>7} {'sum':>8} {'CPU sum':>8} "
          f"{'<0.3s':>6} {'TL':>3}")
    for b in backends:
        ws = sorted(res[(p, b)][0] for p in cuts)
        cs = sum(res[(p, b)][1] for p in cuts)
        tl = sum(res[(p, b)][2] > 0 for p in cuts)
        print(f"{b:10} {benchlib.median(ws):7.3f} {benchlib.rank(ws, .75):7.3f} "
              f"{benchlib.rank(ws, .9):7.3f} {sum(ws):8.2f} {cs:8.2f} {sum(w < 0.3 for w in ws):>3}/{count:<2} {tl:3}",
              flush=True)
if "sets" in sections:
    print(f"{'set':24} {head}")
    res = measure(sets + generated)
    for p in sets + generated:
        cells = " ".join(f"{res[(p, b)][0]:15.3f} {res[(p, b)][1]:6.3f}" for b in backends)
        print(f"{os.path.basename(p):24} {cells}", flush=True)
for b in backends:
    if wins[b]:
        print(f"# {b}: rows by winning member (from 1; 0: answered without a race): "
              + ", ".join(f"{k}: {v}" for k, v in sorted(wins[b].items())))
print(benchlib.load_after())
