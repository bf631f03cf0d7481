#!/usr/bin/env bash
# The `dlx` engine of two commits side by side: an OLD build (a git worktree of OLD_REF,
# built outside the repository) and the NEW one (this checkout), run INTERLEAVED (old, new,
# old, new, ... for ROUNDS rounds, per set), one thread, counting up to two solutions, puzzles
# parsed before the clock starts. Prints per set the median puzzles per thread-CPU second of
# each build, the ratio new / old, and the load average before and after.
#
#   scripts/bench/dlx.sh [ROUNDS] [MIN_CPU_SECS] [SET...]
#
# Defaults: 5 rounds of 1.5 CPU seconds per run, data/royle-17clue.txt and
# data/magictour-top1465.txt. Environment: OLD_REF (default HEAD~1: the commit to compare
# this checkout with), OLD_DIR (default /tmp/dlx-old-src),
# OLD_TARGET (default /tmp/dlx-old-target), SPEC (engine spec, default dlx). The timing
# loop is examples/dlx_bench.rs (public API only), copied into the old tree so that both
# builds time exactly the same loop. Both builds also print their total nodes, which must be
# equal (the change must not change the search).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
secs=${2:-1.5}
shift 2 || shift $# || true
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(data/royle-17clue.txt data/magictour-top1465.txt)
old_ref=${OLD_REF:-HEAD~1}
old_dir=${OLD_DIR:-/tmp/dlx-old-src}
old_target=${OLD_TARGET:-/tmp/dlx-old-target}
spec=${SPEC:-dlx}
source scripts/bench/old-worktree.sh
old_worktree "$old_dir" "$old_ref"
mkdir -p "$old_dir/examples"
cp examples/dlx_bench.rs "$old_dir/examples/"
(cd "$old_dir" && CARGO_TARGET_DIR="$old_target" cargo build --release --quiet --example dlx_bench)
cargo build --release --quiet --example dlx_bench
old="$old_target/release/examples/dlx_bench"
new=${CARGO_TARGET_DIR:-target}/release/examples/dlx_bench

echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); old $old_ref, new $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo +dirty); $rounds rounds x ${secs} CPU s; engine $spec; count to 2"
out=$(mktemp -d)
for ((r = 1; r <= rounds; r++)); do
    for set in "${sets[@]}"; do
        name=$(basename "$set" .txt)
        "$old" solve "$set" "$secs" "$spec" >>"$out/$name.old"
        "$new" solve "$set" "$secs" "$spec" >>"$out/$name.new"
    done
done
printf '%-22s %12s %12s %8s %8s  %s\n' set "old" "new" "new/old" "rounds" "per-round ratios"
for set in "${sets[@]}"; do
    name=$(basename "$set" .txt)
    python3 - "$name" "$out/$name" <<'PY'
import re, statistics, sys
name, base = sys.argv[1:]
def rates(kind):
    text = open(f"{base}.{kind}").read()
    r = [float(m) for m in re.findall(r"rate_cpu=([0-9.]+)", text)]
    n = {int(m) // int(p) for m, p in zip(re.findall(r" nodes=([0-9]+)", text), re.findall(r"passes=([0-9]+)", text))}
    return r, n
old, on = rates("old")
new, nn = rates("new")
if on != nn:
    print(f"{name}: NODE TOTALS DIFFER old {on} new {nn}")
ratios = " ".join(f"{b / a:.2f}" for a, b in zip(old, new))
print(f"{name:22} {statistics.median(old):10.0f}/s {statistics.median(new):10.0f}/s "
      f"{statistics.median(new) / statistics.median(old):7.3f}x {len(old):8}  {ratios}")
PY
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg); rates = puzzles per thread-CPU second (median of the rounds)"
rm -rf "$out"
