#!/usr/bin/env bash
# The `fast` engine beside the `sudoku` crate 0.8 (JCZSolve-style, the peer harness of
# ../shared/peers), interleaved in one invocation: one thread, counting up to two solutions,
# puzzles parsed before the clock starts, rates by thread CPU time (wall beside it).
#
#   scripts/bench/fast.sh [ROUNDS] [MIN_CPU_SECS] [SET...]
#
# Defaults: 3 rounds of 1.5 CPU seconds per run on data/royle-17clue.txt,
# data/magictour-top1465.txt and data/forum-hardest-1106.txt. Each round runs, per set:
# the peer (`rustpeers sudoku2`), `fast_bench solver` (the solver called in a direct library
# loop, the same shape as the peer's loop) and `fast_bench engine` (through `engines::run`,
# the runner's per-run bookkeeping); benches/fast_bench.rs is the loop, scripts/bench/fast.py
# runs the rounds. The median of the rounds is printed with the ratio fast / peer. Also
# prints the median guesses per puzzle of `fast` on each set.
#
# The peer crate is AGPL-3.0 and is never part of this project: it is copied to
# $PEERS_DIR (default /tmp/peers) and built there with CARGO_TARGET_DIR=$PEERS_TARGET
# (default /tmp/peers-target), outside the repository. PEERS_SRC overrides where it is copied
# from (default ../shared/peers next to the repository, or /work/shared/peers).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
secs=${2:-1.5}
shift 2 || shift $# || true
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(data/royle-17clue.txt data/magictour-top1465.txt data/forum-hardest-1106.txt)

peers_src=${PEERS_SRC:-}
if [ -z "$peers_src" ]; then
    for d in ../shared/peers ../../shared/peers /work/shared/peers; do
        if [ -f "$d/Cargo.toml" ]; then peers_src=$d; break; fi
    done
fi
[ -n "$peers_src" ] || { echo "peer harness not found: set PEERS_SRC" >&2; exit 2; }
peers_dir=${PEERS_DIR:-/tmp/peers}
peers_target=${PEERS_TARGET:-/tmp/peers-target}
case "$(realpath -m "$peers_dir")/" in
    "$(pwd)"/*) echo "PEERS_DIR must be outside the repository" >&2; exit 2 ;;
esac
mkdir -p "$peers_dir"
cp -r "$peers_src"/Cargo.toml "$peers_src"/Cargo.lock "$peers_src"/src "$peers_dir"/
# BENCH_RUSTFLAGS (default empty): code-generation flags for both programs alike, e.g.
# `-C target-cpu=native`; the peer then gets a target directory of its own.
if [ -n "${BENCH_RUSTFLAGS:-}" ]; then
    peers_target="$peers_target-$(python3 scripts/bench/benchlib.py flags-slug "$BENCH_RUSTFLAGS")"
fi
(cd "$peers_dir" && RUSTFLAGS="${BENCH_RUSTFLAGS:-}" CARGO_TARGET_DIR="$peers_target" \
    cargo build --release --quiet)
peer="$peers_target/release/rustpeers"
fast=$(python3 scripts/bench/benchlib.py build-bench fast_bench)
python3 scripts/bench/fast.py "$peer" "$fast" "$rounds" "$secs" "${sets[@]}"
