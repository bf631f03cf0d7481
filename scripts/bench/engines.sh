#!/usr/bin/env bash
# Times every engine on puzzle sets, one thread, counting up to two solutions, with a
# per-puzzle time limit so that the naive engines give up honestly instead of stalling the
# run. Prints, per set and engine: puzzles answered, limit hits, CPU seconds of search
# (sum of solve_s), puzzles/s over CPU time, and median nodes/guesses.
#
#   scripts/bench/engines.sh [TIME_LIMIT_SECS] [SET...]
#
# Defaults: 10 s per puzzle, data/pe96.txt and data/norvig-top95.txt. Engines run one after
# the other in one invocation, so their figures compare side by side on this machine's load.
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=${1:-10}
shift || true
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(data/pe96.txt data/norvig-top95.txt)
cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-target}/release/sudolab
out=$(mktemp -d)
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), limit ${limit}s per puzzle"
for set in "${sets[@]}"; do
    for engine in backtrack bnb bitmask human binary "binary --option propagation=hidden" sat "sat --encoding optimized" dlx; do
        name=$(echo "$engine" | tr ' =' '_:' | sed 's/--option_//;s/--//g')
        csv="$out/$(basename "$set" .txt)-$name.csv"
        # shellcheck disable=SC2086
        $bin solve "$set" --engine $engine --max-solutions 2 --time-limit "$limit" --csv >"$csv" 2>/dev/null || true
        python3 - "$set" "$engine" "$csv" <<'PY'
import csv, statistics, sys
path, engine, f = sys.argv[1:]
rows = list(csv.DictReader(open(f)))
if not rows:
    print(f"{path:28} {engine:38} (no rows: engine unavailable?)"); sys.exit()
ans = [r for r in rows if r["status"] in ("unique", "multiple", "unsat", "solved")]
lim = [r for r in rows if r["status"] not in ("unique", "multiple", "unsat", "solved")]
cpu = sum(float(r["build_s"]) + float(r["solve_s"]) for r in rows)
med = lambda k: statistics.median(int(r[k]) for r in rows)
rate = len(rows) / cpu if cpu > 0 else float("inf")
print(f"{path:28} {engine:38} answered {len(ans):4}/{len(rows):<4} limits {len(lim):3}  "
      f"cpu {cpu:9.3f} s  {rate:10.1f} puzzles/s  median nodes {med('nodes'):>10} guesses {med('guesses'):>8}")
PY
    done
done
rm -rf "$out"
