"""The interleaved rounds and the table of sat-amo.sh (see its header).

    python3 scripts/bench/sat-amo.py ROUNDS TIME_LIMIT BACKEND CUTS_DIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

rounds, limit, backend, tmp = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
large = ["rk-25x25", "rk-64x64", "rk-81x81", "rk-100x100", "rk-144x144",
         "gen-225x225", "gen-400x400"]
cases = [(f"data/{g}.txt", g, "reduced") for g in large]
cases += [(f"data/{g}.txt", g, "optimized") for g in large]
cases += [(f"{tmp}/cut-{n}.txt", f"cut-{n} 60%", "extended") for n in (16, 25, 36, 49, 64)]
thresholds = ["auto:0", "auto:8", "auto:16", "auto", "auto:64", "auto:128", "pairwise"]
print(benchlib.header(f"{rounds} rounds, {limit} s, {backend}"), flush=True)


def run(path, encoding, amo):
    """CPU seconds of the run (None at the time limit) and the formula's clauses."""
    rows = benchlib.solve(path, "--engine", "sat", "--time-limit", limit,
                          *benchlib.options(f"encoding={encoding},amo={amo},backend={backend},"
                                            "max_literals=1000000000"))
    r = rows[0]
    assert r["status"] in benchlib.ANSWERED + ("time-limit",), (path, amo, r["status"], r["note"])
    return (None if r["status"] == "time-limit" else benchlib.cpu(r)), int(r["clauses"] or 0)


print(f"{'instance':16} {'encoding':9} " + " ".join(f"{t:>9}" for t in thresholds)
      + "   clauses auto / pairwise")
sums = {t: 0.0 for t in thresholds}
for path, name, enc in cases:
    got = {t: [] for t in thresholds}
    clauses = {}
    for _ in range(rounds):
        for t in thresholds:
            cpu, cl = run(path, enc, t)
            got[t].append(cpu)
            clauses[t] = cl
    cells = []
    for t in thresholds:
        answered = [c for c in got[t] if c is not None]
        if len(answered) * 2 <= len(got[t]):
            cells.append("TL")
            sums[t] += float(limit)
        else:
            m = benchlib.median(c if c is not None else float(limit) for c in got[t])
            cells.append(f"{m * 1e3:.1f}")
            sums[t] += m
    print(f"{name:16} {enc:9} " + " ".join(f"{c:>9}" for c in cells)
          + f"   {clauses['auto']} / {clauses['pairwise']}", flush=True)
print(f"{'sum (s)':26} " + " ".join(f"{sums[t]:>9.2f}" for t in thresholds))
