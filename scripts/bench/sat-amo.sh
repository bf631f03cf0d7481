#!/usr/bin/env bash
# Issue 10, item 2: the rule of `amo=auto` (pairwise for groups of at most K literals,
# bimander above, K = 32), measured by moving the threshold: `amo=auto:K` for K = 0 (every
# group bimander), 8, 16, 32 (the default), 64, 128 and "pairwise" (no group bimander).
#
#   scripts/bench/sat-amo.sh [ROUNDS] [TIME_LIMIT] [BACKEND]
#
# Instances and why:
# - `reduced` (the default encoding) on the published and generated large grids rk-25x25 ..
#   gen-400x400: the groups left after singles, the case the rule is for;
# - `optimized` on the same grids: larger groups (every candidate the givens leave);
# - `extended` on random cuts at 60% givens of sides 16, 25, 36, 49 and 64
#   (scripts/data/make-large.py, seed 1): every group has exactly N literals, so each row is one
#   group size.
# Every configuration runs once per round, interleaved, so load drifts hit them alike. The
# table gives, per instance, each threshold's median CPU (build_s + solve_s, ms) over the
# rounds and the formula's clauses at K = 32 vs pairwise; a run that ends at the time limit
# (default 10 s, wall clock) is shown as TL. The last line sums each column (TL counted as
# the limit): the rule holds where K = 32 is the best sum or within noise of it.
# Defaults: 3 rounds, 10 s, batsat (the default backend).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
limit=${2:-10}
backend=${3:-batsat}
cargo build --release --quiet
# The binary cargo just built: under $CARGO_TARGET_DIR (relative to the repository) when set.
export SUDOLAB_BIN=${CARGO_TARGET_DIR:-target}/release/sudolab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in 16 25 36 49 64; do
    python3 scripts/data/make-large.py --side "$n" --fraction 0.6 --seed 1 -o "$tmp/cut-$n.txt"
done
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $rounds rounds, ${limit} s, $backend"
python3 - "$rounds" "$limit" "$backend" "$tmp" <<'PY'
import csv, io, os, statistics, subprocess, sys
csv.field_size_limit(1 << 30)
rounds, limit, backend, tmp = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
large = ["rk-25x25", "rk-64x64", "rk-81x81", "rk-100x100", "rk-144x144",
         "gen-225x225", "gen-400x400"]
cases = [(f"data/{g}.txt", g, "reduced") for g in large]
cases += [(f"data/{g}.txt", g, "optimized") for g in large]
cases += [(f"{tmp}/cut-{n}.txt", f"cut-{n} 60%", "extended") for n in (16, 25, 36, 49, 64)]
thresholds = ["auto:0", "auto:8", "auto:16", "auto", "auto:64", "auto:128", "pairwise"]
def run(path, encoding, amo):
    args = [os.environ["SUDOLAB_BIN"], "solve", path, "--engine", "sat", "--csv",
            "--time-limit", limit, "--option", f"encoding={encoding}",
            "--option", f"amo={amo}", "--option", f"backend={backend}",
            "--option", "max_literals=1000000000"]
    p = subprocess.run(args, capture_output=True, text=True, check=True)
    r = next(csv.DictReader(io.StringIO(p.stdout)))
    assert r["status"] in ("unique", "multiple", "unsat", "time-limit"), (path, amo, r["status"], r["note"])
    cpu = float(r["build_s"]) + float(r["solve_s"])
    return (None if r["status"] == "time-limit" else cpu), int(r["clauses"] or 0)
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
            m = statistics.median(c if c is not None else float(limit) for c in got[t])
            cells.append(f"{m * 1e3:.1f}")
            sums[t] += m
    print(f"{name:16} {enc:9} " + " ".join(f"{c:>9}" for c in cells)
          + f"   {clauses['auto']} / {clauses['pairwise']}", flush=True)
print(f"{'sum (s)':26} " + " ".join(f"{sums[t]:>9.2f}" for t in thresholds))
PY
