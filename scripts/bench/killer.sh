#!/usr/bin/env bash
# Killer sudoku per engine: every puzzle of data/variants/killer-janko.json solved by the
# release binary, counting to two solutions, one CSV per engine; prints per engine the
# answers that are not the published solution (killer-X puzzles 196-198 read without their
# diagonals must be `multiple`), then over the 155 9x9 puzzles the median and the maximum of
# wall_s and of build_s + solve_s (thread CPU), in milliseconds, and the puzzle of the max.
#
#   scripts/bench/killer.sh [TIME_LIMIT_SECS] [ENGINE...]
#
# Defaults: a time limit of 10 s per puzzle; engines human, binary,
# binary:propagation=hidden, dlx, backtrack, bnb:order=lifo, bitmask.
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=${1:-10}
shift || true
engines=("$@")
[ ${#engines[@]} -gt 0 ] ||
    engines=(human binary binary:propagation=hidden dlx backtrack bnb:order=lifo bitmask)
set_file=data/variants/killer-janko.json
cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-target}/release/sudolab
out=$(mktemp -d)
echo "# $(date -u +%FT%TZ) $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), load $(cut -d' ' -f1-3 /proc/loadavg); $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo +dirty); time limit ${limit} s"
for e in "${engines[@]}"; do
    csv="$out/$(echo "$e" | tr ':=' '__').csv"
    "$bin" solve "$set_file" --engine "$e" --csv --max-solutions 2 --time-limit "$limit" >"$csv"
    python3 - "$e" "$csv" "$set_file" <<'PY'
import csv, json, statistics, sys
engine, path, set_file = sys.argv[1:]
published = {
    k: "".join(v["solution"].split("\n", 1)[1].split())
    for k, v in json.load(open(set_file))["data"].items()
}
rows = list(csv.DictReader(open(path)))
wrong, wall, cpu = [], [], []
for r in rows:
    name = r["name"]
    if name in ("196_9x9", "197_9x9", "198_9x9"):
        ok = r["status"] == "multiple"
    else:
        ok = r["status"] == "unique" and r["solution"] == published[name]
    if not ok:
        wrong.append(f"{name}:{r['status']}")
    if r["size"] == "9":
        wall.append((float(r["wall_s"]) * 1e3, name))
        cpu.append((float(r["build_s"] or 0) + float(r["solve_s"] or 0)) * 1e3)
med = statistics.median(w for w, _ in wall)
top = max(wall)
print(
    f"{engine:28} puzzles {len(rows)}  not published {len(wrong)}  9x9 wall ms: median {med:.3f}"
    f" max {top[0]:.3f} ({top[1]})  cpu ms: median {statistics.median(cpu):.3f} max {max(cpu):.3f}"
)
if wrong:
    print("    " + " ".join(wrong[:12]) + (" ..." if len(wrong) > 12 else ""))
PY
done
