#!/usr/bin/env bash
# The sat engine's sum encodings of killer cages (sum=combinations|totalizer|bdd) on the 299
# janko.at killers of data/variants/killer-janko.json: every encoding solves the whole set
# REPEAT times (default 3; one process per run, `solve --csv`, two solutions asked so that
# uniqueness is proved), alternating encodings between repeats. Per encoding: the whole run's
# wall time (best of the repeats), and per puzzle (of the best repeat) the median, mean and
# maximum of build_s + solve_s in ms and the mean vars / clauses / literals of the formula.
#
#   scripts/bench/killer-sum.sh [REPEAT] [EXTRA_ENGINE_OPTIONS]
#
# EXTRA_ENGINE_OPTIONS (e.g. `encoding=extended`) is appended to each `sat:sum=X` engine.
set -euo pipefail
cd "$(dirname "$0")/../.."
repeat=${1:-3}
extra=${2:+,$2}
cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-target}/release/sudolab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sums=(combinations totalizer bdd)
for r in $(seq 1 "$repeat"); do
    for s in "${sums[@]}"; do
        start=$(date +%s.%N)
        "$bin" solve data/variants/killer-janko.json --engine "sat:sum=$s$extra" --csv \
            --max-solutions 2 >"$tmp/$s.$r.csv"
        end=$(date +%s.%N)
        echo "$end - $start" | bc >"$tmp/$s.$r.wall"
    done
done
python3 - "$tmp" "$repeat" "${sums[@]}" <<'PY'
import csv, statistics, sys
tmp, repeat, sums = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
print("| sum | run wall s (best of %d) | median ms | mean ms | max ms | vars | clauses | literals | answers |" % repeat)
print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
for s in sums:
    runs = []
    for r in range(1, repeat + 1):
        wall = float(open(f"{tmp}/{s}.{r}.wall").read())
        rows = list(csv.DictReader(open(f"{tmp}/{s}.{r}.csv")))
        runs.append((wall, rows))
    wall, rows = min(runs, key=lambda x: x[0])
    t = [1000 * (float(x["build_s"]) + float(x["solve_s"])) for x in rows]
    mean = lambda k: statistics.mean(int(x[k]) for x in rows)
    answers = {}
    for x in rows:
        answers[x["status"]] = answers.get(x["status"], 0) + 1
    print(f"| {s} | {wall:.2f} | {statistics.median(t):.2f} | {statistics.mean(t):.2f} | "
          f"{max(t):.1f} | {mean('vars'):.0f} | {mean('clauses'):.0f} | {mean('literals'):.0f} | "
          + ", ".join(f"{k} {v}" for k, v in sorted(answers.items())) + " |")
PY
