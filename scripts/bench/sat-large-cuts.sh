#!/usr/bin/env bash
# Issue 10's large targets on a set, not on one instance: "rk-64x64 .. rk-144x144 each end to
# end in under 0.3 s" and "225x225 and 400x400 puzzles with 60-80% givens answered by default
# in under 1 s and 5 s; peak RSS under 2 GB at 400x400".
#
#   scripts/bench/sat-large-cuts.sh [TIME_LIMIT] [COUNT] [ENGINE]
#
# Instances: data/rk-{64x64,81x81,100x100,144x144}.txt and data/gen-{225x225,400x400}.txt,
# then random cuts of random full grids (`sudolab generate --unchecked --clues K`: the cells
# removed are the first of a random order, so a cut may have several solutions, never none)
# at 58-62% givens of 64x64, 60-80% of 225x225 and 60-80% of 400x400, COUNT seeds each
# (default 2). Each puzzle is solved once by `solve FILE --engine ENGINE --csv --time-limit
# TIME_LIMIT` (default engine `sat`, its default options; default limit 20 s), one process per
# puzzle, one after the other. One row per puzzle: status, conflicts, build_s and solve_s
# from the CSV, and from the process itself (wait4) the wall time, user+system CPU and the
# peak RSS. On a shared machine the wall time is the process's share of the cores: read CPU
# beside it, with the load average printed at the start and the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=${1:-20}
count=${2:-2}
engine=${3:-sat}
cargo build --release --quiet
# The binary cargo just built: under $CARGO_TARGET_DIR (relative to the repository) when set.
bin=${CARGO_TARGET_DIR:-target}/release/sudolab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=(data/rk-64x64.txt data/rk-81x81.txt data/rk-100x100.txt data/rk-144x144.txt
    data/gen-225x225.txt data/gen-400x400.txt)
for spec in 64:58 64:60 64:61 64:62 225:60 225:65 225:70 225:75 225:80 \
    400:60 400:65 400:70 400:75 400:80; do
    n=${spec%:*}
    pct=${spec#*:}
    for seed in $(seq 1 "$count"); do
        f="$tmp/cut-${n}x${n}-${pct}pct-s${seed}.txt"
        "$bin" generate --size "$n" --unchecked --clues $((n * n * pct / 100)) --seed "$seed" -o "$f"
        files+=("$f")
    done
done
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), engine $engine, limit ${limit} s"
python3 - "$bin" "$engine" "$limit" "$tmp" "${files[@]}" <<'PY'
import csv, os, subprocess, sys, time
csv.field_size_limit(1 << 30)
bin, engine, limit, tmp, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
print(f"{'instance':28} {'status':>10} {'conflicts':>9} {'build_s':>8} {'solve_s':>8}"
      f" {'wall_s':>7} {'cpu_s':>7} {'rss_mb':>7}")
for f in files:
    args = [bin, "solve", f, "--engine", engine, "--csv", "--time-limit", limit]
    out_path = os.path.join(tmp, "out.csv")
    with open(out_path, "w") as out, open(os.path.join(tmp, "err.txt"), "w") as err:
        start = time.monotonic()
        p = subprocess.Popen(args, stdout=out, stderr=err)
        # wait4: this process's own CPU time and peak RSS (ru_maxrss, KiB on Linux).
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.monotonic() - start
        p.returncode = os.waitstatus_to_exitcode(status)
    with open(out_path) as out:
        rows = list(csv.DictReader(out))
    r = rows[0] if rows else {"status": f"exit {p.returncode}"}
    cpu = usage.ru_utime + usage.ru_stime
    print(f"{os.path.basename(f):28} {r['status']:>10} {r.get('conflicts', ''):>9}"
          f" {float(r.get('build_s') or 0):8.3f} {float(r.get('solve_s') or 0):8.3f}"
          f" {wall:7.2f} {cpu:7.2f} {usage.ru_maxrss / 1024:7.0f}", flush=True)
PY
echo "# $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
