#!/usr/bin/env bash
# Benchmarks of the experiment runner (`sudolab run`):
#
#  (a) overhead: CPU time (user + system, whole process, parsing included) of
#      `sudolab run experiments/bench-overhead.toml` (the `human` engine on the 49,151 puzzles
#      of data/royle-17clue.txt, one thread, one CSV row written per job) against the same
#      solving without the runner (`experiment::baseline::bare_loop`), run from the same
#      binary as the hidden `sudolab bench-loop FILE ENGINE`. Target: <= 5 %. In one binary
#      the engine's machine code is at the same addresses for both sides; the same loop in
#      another binary (`benches/engine_loop.rs`) runs the same instructions 2-4 % faster or
#      slower depending on where the linker put them, which moves the figure by as much as
#      the runner costs. That loop is timed and shown too ("engine_loop"), to show that
#      spread.
#  (i) instructions: the same comparison as (a) counted in instructions executed (whole
#      process, every thread) under valgrind's callgrind. Deterministic: the figure does not
#      move with the machine's load, where (a) does by several percent. It misses what
#      instructions do not show (cache misses, page faults, system calls), so (a) stays the
#      target's measure; (i) says how much of (a) is work the runner really adds.
#  (b) threads: wall time of experiments/bench-threads.toml with --threads 1 and --threads 2.
#      Target: speed-up >= 1.8 on an otherwise idle two-core machine.
#
# The two sides of each comparison run interleaved, ROUNDS times (default 5), and the medians
# are compared. The load average is printed before and after: on a shared machine, quote it
# with the figures.
#
#   bash scripts/bench/runner.sh            # ROUNDS=9 bash scripts/bench/runner.sh
#   PARTS=a bash scripts/bench/runner.sh     # only the overhead (a), or only b
#   PARTS=i bash scripts/bench/runner.sh     # instruction counts (needs valgrind; ~2 min)
#   BIN=/tmp/old/sudolab PARTS=a bash scripts/bench/runner.sh   # another build of the runner
#   OUT=o.csv.gz PARTS=a bash scripts/bench/runner.sh           # compressed output
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-5}
PARTS=${PARTS:-ab}
OUT=${OUT:-o.csv}

cargo build --release --locked --bin sudolab >&2
BIN=${BIN:-${CARGO_TARGET_DIR:-target}/release/sudolab}
LOOP=$(python3 scripts/bench/benchlib.py build-bench engine_loop)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure CMD...: prints "cpu_seconds wall_seconds" of the command (its children included).
measure() {
    local TIMEFORMAT='%U %S %R'
    { time "$@" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }; } 2>"$tmp/time"
    awk '{ printf "%.3f %.3f\n", $1 + $2, $3 }' "$tmp/time"
}

median() { python3 scripts/bench/benchlib.py median; }

python3 scripts/bench/benchlib.py header "rounds $ROUNDS, parts $PARTS"
if [[ $PARTS == *a* ]]; then
echo "== (a) runner overhead: human on data/royle-17clue.txt, one thread, CPU seconds"
: >"$tmp/direct"
: >"$tmp/runner"
: >"$tmp/engine_loop"
for i in $(seq "$ROUNDS"); do
    d=$(measure "$BIN" bench-loop data/royle-17clue.txt human)
    rm -f "$tmp/$OUT" "$tmp"/o.json
    r=$(measure "$BIN" run experiments/bench-overhead.toml --no-charts --out "$tmp/$OUT")
    e=$(measure "$LOOP" data/royle-17clue.txt human)
    echo "${d% *}" >>"$tmp/direct"
    echo "${r% *}" >>"$tmp/runner"
    echo "${e% *}" >>"$tmp/engine_loop"
    echo "round $i: direct cpu ${d% *} s (wall ${d#* }), runner cpu ${r% *} s (wall ${r#* })," \
        "ratio $(awk -v a="${r% *}" -v b="${d% *}" 'BEGIN { printf "%.3f", a / b }');" \
        "engine_loop ${e% *} s"
done
md=$(median <"$tmp/direct")
mr=$(median <"$tmp/runner")
me=$(median <"$tmp/engine_loop")
echo "median: direct $md s, runner $mr s, overhead $(awk -v a="$mr" -v b="$md" 'BEGIN { printf "%+.1f %%", (a / b - 1) * 100 }')" \
    "($(awk -v a="$mr" -v b="$md" 'BEGIN { printf "%.2f", (a - b) / 49151 * 1e6 }') us per row)"
echo "engine_loop binary (other code placement): $me s, runner against it" \
    "$(awk -v a="$mr" -v b="$me" 'BEGIN { printf "%+.1f %%", (a / b - 1) * 100 }')"

fi

if [[ $PARTS == *i* ]]; then
echo "== (i) runner overhead in instructions (callgrind): human on data/royle-17clue.txt"
if ! command -v valgrind >/dev/null; then
    echo "valgrind is not installed (apt-get install valgrind): part (i) skipped" >&2
else
    # instructions CMD...: the total instructions executed ("I refs") by the command.
    instructions() {
        valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" >"$tmp/out" 2>"$tmp/err" ||
            { cat "$tmp/err" >&2; exit 1; }
        grep -o 'refs: *[0-9,]*' "$tmp/err" | tr -dc '0-9'
    }
    di=$(instructions "$BIN" bench-loop data/royle-17clue.txt human)
    rm -f "$tmp/$OUT" "$tmp"/o.json
    ri=$(instructions "$BIN" run experiments/bench-overhead.toml --no-charts --out "$tmp/$OUT")
    echo "direct $di, runner $ri instructions, overhead" \
        "$(awk -v a="$ri" -v b="$di" 'BEGIN { printf "%+.1f %% (%.0f per row)", (a / b - 1) * 100, (a - b) / 49151 }')"
fi
fi

if [[ $PARTS == *b* ]]; then
echo "== (b) threads: experiments/bench-threads.toml, wall seconds"
: >"$tmp/t1"
: >"$tmp/t2"
for i in $(seq "$ROUNDS"); do
    rm -f "$tmp"/t.csv "$tmp"/t.json
    a=$(measure "$BIN" run experiments/bench-threads.toml --no-charts --threads 1 --out "$tmp/t.csv")
    rm -f "$tmp"/t.csv "$tmp"/t.json
    b=$(measure "$BIN" run experiments/bench-threads.toml --no-charts --threads 2 --out "$tmp/t.csv")
    echo "${a#* }" >>"$tmp/t1"
    echo "${b#* }" >>"$tmp/t2"
    echo "round $i: 1 thread ${a#* } s, 2 threads ${b#* } s," \
        "speed-up $(awk -v a="${a#* }" -v b="${b#* }" 'BEGIN { printf "%.2f", a / b }')"
done
m1=$(median <"$tmp/t1")
m2=$(median <"$tmp/t2")
echo "median: 1 thread $m1 s, 2 threads $m2 s, speed-up $(awk -v a="$m1" -v b="$m2" 'BEGIN { printf "%.2f", a / b }')"
fi
python3 scripts/bench/benchlib.py load-after
