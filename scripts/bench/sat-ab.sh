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
# /tmp/sat-ab-old-src), OLD_TARGET (default /tmp/sat-ab-old-target). The rounds and the table
# are scripts/bench/sat-ab.py.
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
bin=${CARGO_TARGET_DIR:-target}/release/sudolab
python3 scripts/bench/sat-ab.py "$old_target/release/sudolab" "$bin" "$old_ref" "$rounds" "$spec" "${sets[@]}"
