"""The runs and the table of sat-large-cuts.sh (see its header): one process per puzzle file,
timed from outside.

    python3 scripts/bench/sat-large-cuts.py ENGINE TIME_LIMIT TMP_DIR FILE...
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

engine, limit, tmp, *files = sys.argv[1:]
print(benchlib.header(f"engine {engine}, limit {limit} s"))
print(f"{'instance':28} {'status':>10} {'conflicts':>9} {'build_s':>8} {'solve_s':>8}"
      f" {'wall_s':>7} {'cpu_s':>7} {'rss_mb':>7}", flush=True)
for f in files:
    out_path = os.path.join(tmp, "out.csv")
    with open(out_path, "w") as out, open(os.path.join(tmp, "err.txt"), "w") as err:
        t = benchlib.run_timed([benchlib.sudolab_bin(), "solve", f, "--engine", engine, "--csv",
                                "--time-limit", limit], stdout=out, stderr=err)
    rows = benchlib.read_rows(out_path)
    r = rows[0] if rows else {"status": f"exit {t.returncode}"}
    print(f"{os.path.basename(f):28} {r['status']:>10} {r.get('conflicts', ''):>9}"
          f" {float(r.get('build_s') or 0):8.3f} {float(r.get('solve_s') or 0):8.3f}"
          f" {t.wall:7.2f} {t.cpu:7.2f} {t.rss_mb:7.0f}", flush=True)
print(benchlib.load_after())
