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
# loop is benches/dlx_bench.rs (public API only), copied into the old tree so that both
# builds time exactly the same loop; scripts/bench/dlx.py runs the rounds and prints the
# table. Both builds also print their total nodes, which must be equal (the change must not
# change the search).
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
# The same timing loop in both trees: this tree's benches/dlx_bench.rs, declared as a bench
# target in the old tree's manifest when it is not yet.
mkdir -p "$old_dir/benches"
cp benches/dlx_bench.rs "$old_dir/benches/"
grep -q '^name = "dlx_bench"' "$old_dir/Cargo.toml" ||
    printf '\n[[bench]]\nname = "dlx_bench"\nharness = false\nbench = false\n' >>"$old_dir/Cargo.toml"
benchlib=$(pwd)/scripts/bench/benchlib.py
old=$(cd "$old_dir" && CARGO_TARGET_DIR="$old_target" python3 "$benchlib" build-bench dlx_bench)
new=$(python3 "$benchlib" build-bench dlx_bench)
python3 scripts/bench/dlx.py "$old" "$new" "$old_ref" "$rounds" "$secs" "$spec" "${sets[@]}"
