#!/usr/bin/env bash
# The rule of `locked=auto` (locked candidates before encoding on grids up to 9x9): the sat
# engine's default with `locked=false` and with `locked=true`, every other option at its
# default (so `probe=auto`: probing on 9x9 only), on
# - the 9x9 sets (royle 17-clue, first 3,000; magictour-top1465; forum-hardest-1106),
# - the generated sets of data/generated above 9x9 (answered by singles or nearly),
# - the published and generated large grids rk-16x16 .. gen-400x400.
#
#   scripts/bench/sat-locked.sh [ROUNDS] [TIME_LIMIT]
#
# Counting to 2 (`--max-solutions 2`, as the other sat benchmarks). Both configurations run
# once per round, interleaved, so load drifts hit them alike. Per set: the median over the
# rounds of the CPU seconds summed over its puzzles (build_s + solve_s), the rate in puzzles
# per CPU second, and the ratio of the rates (locked=true / locked=false; above 1: locked
# candidates are faster). A puzzle that ends at the time limit (default 20 s, wall clock)
# counts as the limit, and the number of such puzzles is printed.
# Defaults: 3 rounds, 20 s.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
limit=${2:-20}
cargo build --release --quiet
# The binary cargo just built: under $CARGO_TARGET_DIR (relative to the repository) when set.
export SUDOLAB_BIN=${CARGO_TARGET_DIR:-target}/release/sudolab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head -n 3000 data/royle-17clue.txt >"$tmp/royle-17clue-3000.txt"
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $rounds rounds, ${limit} s"
python3 - "$rounds" "$limit" "$tmp" <<'PY'
import csv, io, os, statistics, subprocess, sys
csv.field_size_limit(1 << 30)
rounds, limit, tmp = int(sys.argv[1]), sys.argv[2], sys.argv[3]
sets = [f"{tmp}/royle-17clue-3000.txt", "data/magictour-top1465.txt",
        "data/forum-hardest-1106.txt"]
sets += [f"data/generated/{s}.txt" for s in
         ("scaling-16", "scaling-25", "hardness-25-unique", "hardness-25-unchecked",
          "scaling-36", "scaling-49", "scaling-64", "scaling-81", "scaling-100")]
sets += [f"data/{g}.txt" for g in ("rk-16x16", "rk-25x25", "rk-64x64", "rk-81x81",
                                   "rk-100x100", "rk-144x144", "gen-225x225", "gen-400x400")]
configs = ["false", "true"]
def run(path, locked):
    args = [os.environ["SUDOLAB_BIN"], "solve", path, "--engine", "sat", "--csv",
            "--max-solutions", "2", "--time-limit", limit, "--option", f"locked={locked}"]
    p = subprocess.run(args, capture_output=True, text=True, check=True)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    for r in rows:
        assert r["status"] in ("unique", "multiple", "unsat", "time-limit"), (path, r["status"])
    timed_out = sum(r["status"] == "time-limit" for r in rows)
    cpu = sum(float(limit) if r["status"] == "time-limit"
              else float(r["build_s"]) + float(r["solve_s"]) for r in rows)
    return len(rows), cpu, timed_out
print(f"{'set':34} {'puzzles':>7} {'CPU false':>10} {'CPU true':>10} {'rate false':>11} "
      f"{'rate true':>10} {'ratio':>6} {'TL':>5}")
for path in sets:
    got = {c: [] for c in configs}
    tl = {c: 0 for c in configs}
    for _ in range(rounds):
        for c in configs:
            n, cpu, t = run(path, c)
            got[c].append(cpu)
            tl[c] = max(tl[c], t)
    med = {c: statistics.median(got[c]) for c in configs}
    rate = {c: n / med[c] if med[c] > 0 else float("inf") for c in configs}
    name = os.path.basename(path)
    print(f"{name:34} {n:>7} {med['false']:>10.4f} {med['true']:>10.4f} "
          f"{rate['false']:>11.1f} {rate['true']:>10.1f} {rate['true'] / rate['false']:>6.2f} "
          f"{tl['false']:>2}/{tl['true']:<2}", flush=True)
PY
