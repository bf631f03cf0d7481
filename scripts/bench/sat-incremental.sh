#!/usr/bin/env bash
# Issue 10, item 7: the 9x9 rates of the sat engine's incremental mode (one solver reused per
# geometry, givens as assumptions, guarded blocking clauses, rebuilt by a rule) side by side
# with fresh solvers (a formula and a solver per puzzle), counting to 2 solutions.
#
#   scripts/bench/sat-incremental.sh [ROUNDS] [N17] [BACKEND...]
#
# Sets: the first N17 (default 5000) puzzles of data/royle-17clue.txt, all of
# data/magictour-top1465.txt and data/forum-hardest-1106.txt. Configurations per backend:
# fresh reduced (the engine's default, the baseline of the ratios), fresh optimized, and
# incremental mode (extended formula, singles first) with fallback=never (the reused solver
# alone) and fallback=K conflicts for a few K (a puzzle whose call reaches K conflicts on the
# reused solver goes to a fresh reduced solver), rebuild=auto, and fallback=200 with
# rebuild=20 (tdoku's rule). Every configuration runs once per round, interleaved (round 1:
# all configurations, round 2: all again, ...), so load drifts hit them alike; the table gives
# each configuration's median over rounds of puzzles per CPU second (build_s + solve_s of the
# CSV), and its ratio to fresh reduced.
#
# Two framings side by side (issue 10's target, "2x fresh on 17-clue, no slower on top1465
# and forum-hardest"): `/red` is the ratio to fresh reduced (the engine's default, probing up
# to 9x9) on the same backend, `/ext` the ratio to a fresh solver of the same backend on the
# same formula as the incremental mode's (fresh extended). Incremental configurations run
# propagation first (singles, locked candidates and probing up to 9x9, as fresh reduced);
# `probe=false` leaves probing out; `assume=all|refuted` add the removed candidates as
# negative assumptions. Defaults: 3 rounds, backends batsat varisat cadical.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
n17=${2:-5000}
shift 2 || shift $# || true
backends=("$@")
[ ${#backends[@]} -gt 0 ] || backends=(batsat varisat cadical)
cargo build --release --quiet
# The binary cargo just built: under $CARGO_TARGET_DIR (relative to the repository) when set.
export SUDOLAB_BIN=${CARGO_TARGET_DIR:-target}/release/sudolab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head -n "$n17" data/royle-17clue.txt >"$tmp/17clue-$n17.txt"
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $rounds rounds"
python3 - "$rounds" "$tmp" "$tmp/17clue-$n17.txt" "${backends[@]}" <<'PY'
import csv, io, os, statistics, subprocess, sys
rounds, tmp, s17, backends = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
sets = [s17, "data/magictour-top1465.txt", "data/forum-hardest-1106.txt"]
configs = [
    ("fresh reduced", "encoding=reduced"),
    ("fresh optimized", "encoding=optimized"),
    ("fresh extended", "encoding=extended"),
    ("incr never", "incremental=true,fallback=never"),
    ("incr fb50", "incremental=true,fallback=50"),
    ("incr fb200", "incremental=true,fallback=200"),
    ("incr fb1000", "incremental=true,fallback=1000"),
    ("incr fb200 r20", "incremental=true,fallback=200,rebuild=20"),
    ("incr noprobe", "incremental=true,fallback=never,probe=false"),
    ("incr all", "incremental=true,fallback=never,assume=all"),
    ("incr refuted", "incremental=true,fallback=never,assume=refuted"),
]
def rate(path, spec):
    args = [os.environ["SUDOLAB_BIN"], "solve", path, "--engine", "sat", "--max-solutions", "2", "--csv"]
    for kv in spec.split(","):
        args += ["--option", kv]
    p = subprocess.run(args, capture_output=True, text=True, check=True)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    bad = [r for r in rows if r["status"] not in ("unique", "multiple", "unsat", "solved")]
    assert not bad, f"{spec}: {bad[0]['status']} {bad[0].get('note')}"
    cpu = sum(float(r["build_s"]) + float(r["solve_s"]) for r in rows)
    return len(rows) / cpu
for path in sets:
    for b in backends:
        got = {name: [] for name, _ in configs}
        for _ in range(rounds):
            for name, spec in configs:
                got[name].append(rate(path, f"{spec},backend={b}"))
        base = statistics.median(got["fresh reduced"])
        same = statistics.median(got["fresh extended"])
        print(f"{path.split('/')[-1]} {b}", flush=True)
        for name, _ in configs:
            m = statistics.median(got[name])
            print(f"  {name:16} {m:8.0f}/s  {m / base:5.2f}x /red  {m / same:5.2f}x /ext", flush=True)
PY
echo "# end: load $(cut -d' ' -f1-3 /proc/loadavg)"
