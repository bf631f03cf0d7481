"""The runs and the lines of killer.sh (see its header): per engine, one `solve --csv` of the
whole set, its answers against the published solutions, and the wall and CPU times of its
9x9 puzzles.

    python3 scripts/bench/killer.py SET_FILE TIME_LIMIT ENGINE...
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

set_file, limit, *engines = sys.argv[1:]
# Killer-X puzzles read without their diagonals: several solutions.
MULTIPLE = ("196_9x9", "197_9x9", "198_9x9")
with open(set_file) as f:
    published = {k: "".join(v["solution"].split("\n", 1)[1].split())
                 for k, v in json.load(f)["data"].items()}
print(benchlib.header(f"time limit {limit} s"), flush=True)
for engine in engines:
    rows = benchlib.solve(set_file, "--engine", engine, "--max-solutions", "2",
                          "--time-limit", limit)
    wrong, wall, cpu = [], [], []
    for r in rows:
        name = r["name"]
        if name in MULTIPLE:
            ok = r["status"] == "multiple"
        else:
            ok = r["status"] == "unique" and r["solution"] == published[name]
        if not ok:
            wrong.append(f"{name}:{r['status']}")
        if r["size"] == "9":
            wall.append((float(r["wall_s"]) * 1e3, name))
            cpu.append(benchlib.cpu(r) * 1e3)
    top = max(wall)
    print(f"{engine:28} puzzles {len(rows)}  not published {len(wrong)}  9x9 wall ms: median "
          f"{benchlib.median(w for w, _ in wall):.3f} max {top[0]:.3f} ({top[1]})  cpu ms: "
          f"median {benchlib.median(cpu):.3f} max {max(cpu):.3f}", flush=True)
    if wrong:
        print("    " + " ".join(wrong[:12]) + (" ..." if len(wrong) > 12 else ""))
