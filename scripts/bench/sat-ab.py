"""The interleaved rounds and the table of sat-ab.sh (see its header).

    python3 scripts/bench/sat-ab.py OLD_BIN NEW_BIN OLD_REF ROUNDS SPEC SET...
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

old_bin, new_bin, old_ref, rounds, spec, *sets = sys.argv[1:]
rounds = int(rounds)
bins = {"old": old_bin, "new": new_bin}
print(benchlib.header(f"old {old_ref}, new {benchlib.commit()}; {rounds} rounds; engine {spec};"
                      " count to 2"), flush=True)


def run(kind, path):
    """Summed solve_s and build_s of one run of the set, and its answers."""
    rows = benchlib.solve(path, "--engine", spec, "--max-solutions", "2", bin=bins[kind])
    answers = [(r["status"], r["solutions"]) for r in rows]
    return (sum(float(r["solve_s"]) for r in rows), sum(float(r["build_s"]) for r in rows),
            answers)


print(f"{'set':26} {'old solve_s':>11} {'new solve_s':>11} {'new/old':>8} "
      f"{'old build_s':>11} {'new build_s':>11}  per-round ratios")
for path in sets:
    got = {"old": [], "new": []}
    for _ in range(rounds):
        for kind in ("old", "new"):
            got[kind].append(run(kind, path))
    if got["old"][0][2] != got["new"][0][2]:
        print(f"{path}: ANSWERS DIFFER between the builds")
    med = {k: (benchlib.median(x[0] for x in v), benchlib.median(x[1] for x in v))
           for k, v in got.items()}
    ratios = " ".join(f"{n[0] / o[0]:.2f}" for o, n in zip(got["old"], got["new"]))
    print(f"{os.path.basename(path):26} {med['old'][0]:11.3f} {med['new'][0]:11.3f} "
          f"{med['new'][0] / med['old'][0]:7.3f}x {med['old'][1]:11.3f} {med['new'][1]:11.3f}  "
          f"{ratios}", flush=True)
print(benchlib.load_after())
