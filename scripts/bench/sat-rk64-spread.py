"""The runs and the table of sat-rk64-spread.sh (see its header).

    python3 scripts/bench/sat-rk64-spread.py SUDOLAB_BIN COUNT TIME_LIMIT TMP_DIR BACKEND...
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

bin, count, limit, tmp, backends = (sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4],
                                    sys.argv[5:])
print(benchlib.header(f"{count} cuts, {limit} s"), flush=True)


def solve(path, backend):
    rows = benchlib.solve(path, "--engine", "sat", "--option", f"backend={backend}",
                          "--time-limit", limit, bin=bin)
    for r in rows:
        assert r["status"] in ("unique", "multiple", "time-limit"), (path, r["status"])
    return rows


def cpu(r):
    return benchlib.cpu_or_limit(r, limit)


rk = "data/rk-64x64.txt"
rk_rows = {backend: solve(rk, backend)[0] for backend in backends}
first = rk_rows[backends[0]]
clues = int(first["clues"])
cuts = f"{tmp}/cuts-64.txt"
with open(cuts, "w") as out:
    for seed in range(1, count + 1):
        p = subprocess.run([bin, "generate", "--size", "64", "--unchecked", "--clues",
                            str(clues), "--seed", str(seed)],
                           capture_output=True, text=True, check=True)
        out.write(p.stdout)
print(f"# rk-64x64: {clues} givens ({clues / 64 / 64:.1%}), {first['status']}")
print(f"{'backend':8} {'rk cpu_s':>8} {'rank':>6} {'median':>7} {'p75':>7} {'p90':>7} "
      f"{'max':>7} {'<0.3s':>6} {'TL':>3} {'med confl':>9}")
for backend in backends:
    rk_cpu = cpu(rk_rows[backend])
    rows = solve(cuts, backend)
    assert len(rows) == count, (cuts, len(rows))
    xs = sorted(cpu(r) for r in rows)
    below = sum(x < rk_cpu for x in xs)
    confl = [int(r["conflicts"]) for r in rows if r["conflicts"]]
    med_confl = f"{benchlib.median(confl):9.0f}" if confl else f"{'':9}"
    fast = sum(x < 0.3 for x in xs)
    print(f"{backend:8} {rk_cpu:8.3f} {below + 1:>3}/{count + 1:<2} {benchlib.median(xs):7.3f} "
          f"{benchlib.rank(xs, 0.75):7.3f} {benchlib.rank(xs, 0.9):7.3f} {xs[-1]:7.3f} "
          f"{fast:>3}/{count:<2} {sum(r['status'] == 'time-limit' for r in rows):3} {med_confl}", flush=True)
print(benchlib.load_after())
