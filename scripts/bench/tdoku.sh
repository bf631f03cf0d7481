#!/usr/bin/env bash
# The `fast` engine beside tdoku (Dillon's SIMD DPLL solver, the fastest published 9x9
# solver we know of; BSD-2-Clause, sources in ../shared/peers/tdoku), interleaved in one
# invocation on the same sets: one thread each, counting up to two solutions, puzzles in
# file order (tdoku's `-r0`: no random permutation), rates in puzzles per wall second (the
# clock tdoku's `run_benchmark` reads; `fast`'s CPU rate beside it).
#
#   scripts/bench/tdoku.sh [ROUNDS] [SECS] [SET...]
#
# Sets hold one 9x9 puzzle per line (81 characters, `0` or `.` for an empty cell; `#` lines
# are skipped). Defaults: 3 rounds of 2 seconds per run on data/royle-17clue.txt,
# data/magictour-top1465.txt and data/forum-hardest-1106.txt. Each round runs, per set,
# `run_benchmark -c1 -r0 -n COUNT -s tdoku -t SECS -w 1` (COUNT: the set's puzzles) and
# `fast_bench solver SET SECS` (benches/fast_bench.rs: the solver called in a direct library
# loop, as tdoku's harness calls its solver). The median of the rounds is printed with the
# ratio fast / tdoku (>= 1.0: fast is faster).
#
# tdoku is built outside the repository by ../shared/peers/tdoku/build.sh (cmake, `-O3
# -march=native`) with the C++ compiler $TDOKU_CXX: by default clang++ when it is installed
# (tdoku's docs: "not as fast if you compile with gcc instead of clang"; `apt-get install
# clang`), else g++. It goes into $TDOKU_BUILD (default /tmp/tdoku-build-COMPILER, e.g.
# /tmp/tdoku-build-clang++); the compiler tdoku reports is printed. TDOKU_SRC overrides
# where its sources are (default ../shared/peers/tdoku next to the repository, or
# /work/shared/peers/tdoku). It is never part of this project. fast_bench is built with
# RUSTFLAGS=$BENCH_RUSTFLAGS (default `-C target-cpu=native`, tdoku's code generation) in
# target/bench-FLAGS/; `BENCH_RUSTFLAGS= scripts/bench/tdoku.sh` measures the baseline x86-64
# build instead.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
secs=${2:-2}
shift 2 || shift $# || true
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(data/royle-17clue.txt data/magictour-top1465.txt data/forum-hardest-1106.txt)

src=${TDOKU_SRC:-}
if [ -z "$src" ]; then
    for d in ../shared/peers/tdoku ../../shared/peers/tdoku /work/shared/peers/tdoku; do
        if [ -f "$d/build.sh" ]; then src=$d; break; fi
    done
fi
[ -n "$src" ] || { echo "tdoku sources not found: set TDOKU_SRC" >&2; exit 2; }
command -v cmake >/dev/null || { echo "tdoku needs cmake: apt-get install cmake" >&2; exit 2; }
if [ -z "${TDOKU_CXX:-}" ]; then
    if command -v clang++ >/dev/null; then TDOKU_CXX=clang++; else TDOKU_CXX=g++; fi
fi
command -v "$TDOKU_CXX" >/dev/null || { echo "TDOKU_CXX=$TDOKU_CXX not found" >&2; exit 2; }
build=${TDOKU_BUILD:-/tmp/tdoku-build-$(basename "$TDOKU_CXX")}
case "$(realpath -m "$build")/" in
    "$(pwd)"/*) echo "TDOKU_BUILD must be outside the repository" >&2; exit 2 ;;
esac
[ -x "$build/run_benchmark" ] || CXX=$TDOKU_CXX bash "$src/build.sh" "$build" >&2
tdoku="$build/run_benchmark"
# fast_bench with the code generation tdoku gets (-march=native): BENCH_RUSTFLAGS, by default
# `-C target-cpu=native`; BENCH_RUSTFLAGS= (empty) builds it for the baseline x86-64 as the
# project's own binaries are.
export BENCH_RUSTFLAGS=${BENCH_RUSTFLAGS--C target-cpu=native}
fast=$(python3 scripts/bench/benchlib.py build-bench fast_bench)

python3 scripts/bench/benchlib.py header "$rounds rounds x ${secs} s; count to 2, one thread; \
tdoku $TDOKU_CXX -O3 -march=native, fast_bench RUSTFLAGS='$BENCH_RUSTFLAGS'"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for ((r = 1; r <= rounds; r++)); do
    for set in "${sets[@]}"; do
        name=$(basename "$set" .txt)
        # CSV: compiler, version, flags, file, solver, puzzles/s, us/puzzle, %no_guess, guesses.
        # tdoku reads 81 characters per line with `.` for an empty cell: both read this copy.
        grep -v '^#' "$set" | tr '0' '.' >"$out/$name.txt"
        count=$(wc -l <"$out/$name.txt")
        "$tdoku" -c1 -r0 -n "$count" -s tdoku -t "$secs" -w 1 "$out/$name.txt" |
            grep ',tdoku,' >>"$out/$name.tdoku"
        "$fast" solver "$out/$name.txt" "$secs" >>"$out/$name.fast"
    done
done
echo "tdoku built by: $(cut -d, -f1,2 "$out/$(basename "${sets[0]}" .txt).tdoku" | head -1)"
printf '%-24s %14s %14s %14s %9s %14s %13s\n' set "tdoku (wall)" "fast (wall)" "fast (CPU)" \
    "ratio" "guesses tdoku" "guesses fast"
for set in "${sets[@]}"; do
    name=$(basename "$set" .txt)
    sudolab_rates() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" "$out/$name.fast"; }
    med() { python3 scripts/bench/benchlib.py median; }
    t=$(cut -d, -f6 "$out/$name.tdoku" | med)
    fw=$(sudolab_rates rate_wall | med)
    fc=$(sudolab_rates rate_cpu | med)
    tg=$(cut -d, -f9 "$out/$name.tdoku" | med)
    fg=$(sudolab_rates guesses_per_puzzle | med)
    awk -v n="$name" -v t="$t" -v fw="$fw" -v fc="$fc" -v tg="$tg" -v fg="$fg" \
        'BEGIN { printf "%-24s %12.0f/s %12.0f/s %12.0f/s %8.2fx %14.2f %13.2f\n", n, t, fw, fc, fw / t, tg, fg }'
done
python3 scripts/bench/benchlib.py load-after "ratio = fast (wall) / tdoku (wall), medians of the rounds; \
guesses = mean guesses per puzzle counting to 2 (tdoku's count: binary branches on band configurations; \
fast's: guess points, bivalue cells)"
