#!/usr/bin/env bash
# The sat engine of two commits side by side: an OLD build (a git worktree of OLD_REF, built
# outside the repository) and the NEW one (this checkout), run INTERLEAVED (old, new, old,
# new, ... for ROUNDS rounds, per set), one process per set, `sudolab solve SET --engine SPEC
# --csv --max-solutions 2`. Prints per set and build the median over the rounds of the
# summed `solve_s` and `build_s` (thread CPU), the ratio new / old of `solve_s`, and checks
# that both builds gave the same status and solution count on every puzzle (a change meant
# to leave the search alone must not change an answer).
#
#   scripts/bench/sat-ab.sh [ROUNDS] [SET...]
#
# Defaults: 5 rounds; data/forum-hardest-1106.txt, data/magictour-top1465.txt,
# data/generated/hardness-25-unchecked.txt, data/rk-64x64.txt, data/rk-81x81.txt.
# Environment: OLD_REF (default HEAD~1), SPEC (default sat:backend=cadical), OLD_DIR (default
# /tmp/sat-ab-old-src), OLD_TARGET (default /tmp/sat-ab-old-target).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
shift || true
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(data/forum-hardest-1106.txt data/magictour-top1465.txt
    data/generated/hardness-25-unchecked.txt data/rk-64x64.txt data/rk-81x81.txt)
old_ref=$(git rev-parse --short "${OLD_REF:-HEAD~1}")
old_dir=${OLD_DIR:-/tmp/sat-ab-old-src}
old_target=${OLD_TARGET:-/tmp/sat-ab-old-target}
spec=${SPEC:-sat:backend=cadical}
source scripts/bench/old-worktree.sh
old_worktree "$old_dir" "$old_ref"
(cd "$old_dir" && CARGO_TARGET_DIR="$old_target" cargo build --release --quiet)
cargo build --release --quiet
export OLD_BIN="$old_target/release/sudolab" NEW_BIN=${CARGO_TARGET_DIR:-target}/release/sudolab
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); old $old_ref, new $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo +dirty); $rounds rounds; engine $spec; count to 2"
python3 - "$rounds" "$spec" "${sets[@]}" <<'PY'
import csv, io, os, statistics, subprocess, sys
csv.field_size_limit(1 << 30)
rounds, spec, sets = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
bins = {"old": os.environ["OLD_BIN"], "new": os.environ["NEW_BIN"]}

def run(kind, path):
    p = subprocess.run([bins[kind], "solve", path, "--engine", spec, "--csv",
                        "--max-solutions", "2"], capture_output=True, text=True, check=True)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    answers = [(r["status"], r["solutions"]) for r in rows]
    return (sum(float(r["solve_s"]) for r in rows), sum(float(r["build_s"]) for r in rows),
            answers)

print(f"{'set':26} {'old solve_s':>11} {'new solve_s':>11} {'new/old':>8} "
      f"{'old build_s':>11} {'new build_s':>11}  per-round ratios")
for path in sets:
    got = {"old": [], "new": []}
    for _ in range(rounds):
        for kind in ("old", "new"):
            got[kind].append(run(kind, path))
    if got["old"][0][2] != got["new"][0][2]:
        print(f"{path}: ANSWERS DIFFER between the builds")
    med = {k: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v))
           for k, v in got.items()}
    ratios = " ".join(f"{n[0] / o[0]:.2f}" for o, n in zip(got["old"], got["new"]))
    print(f"{os.path.basename(path):26} {med['old'][0]:11.3f} {med['new'][0]:11.3f} "
          f"{med['new'][0] / med['old'][0]:7.3f}x {med['old'][1]:11.3f} {med['new'][1]:11.3f}  "
          f"{ratios}", flush=True)
PY
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
