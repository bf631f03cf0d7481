"""The interleaved rounds and the table of fast.sh (see its header): per round and set, the
peer harness, `fast_bench solver` and `fast_bench engine`; then per set the median rates, the
ratios to the peer and the median guesses.

    python3 scripts/bench/fast.py PEER_BIN FAST_BENCH_BIN ROUNDS SECS SET...
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

peer, fast, rounds, secs, *sets = sys.argv[1:]
rounds = int(rounds)
kinds = {"peer": [peer, "sudoku2"], "solver": [fast, "solver"], "engine": [fast, "engine"]}
print(benchlib.header(f"{rounds} rounds x {secs} CPU s; rates = puzzles per thread-CPU second,"
                      " count to 2"), flush=True)
out = {(s, k): "" for s in sets for k in kinds}
for _ in range(rounds):
    for s in sets:
        for k, cmd in kinds.items():
            out[(s, k)] += subprocess.run([*cmd, s, secs], capture_output=True, text=True,
                                          check=True).stdout
print(f"{'set':22} {'sudoku crate':>14} {'fast solver':>14} {'fast engine':>14} {'solver':>9} "
      f"{'engine':>9} {'us/17c':>9} {'guesses':>8}")
for s in sets:
    name = os.path.basename(s).removesuffix(".txt")
    p, so, e = (benchlib.median(benchlib.rates(out[(s, k)], "rate_cpu")) for k in kinds)
    guesses = subprocess.run([fast, "guesses", s], capture_output=True, text=True,
                             check=True).stdout
    g = re.search(r"median=([0-9]+)", guesses).group(1)
    print(f"{name:22} {p:12.0f}/s {so:12.0f}/s {e:12.0f}/s {so / p:8.2f}x {e / p:8.2f}x "
          f"{1e6 / so:9.2f} {g:>8}")
print(benchlib.load_after("ratio columns = fast / sudoku crate (>= 1.0 = fast is faster);"
                          " us/17c = solver microseconds per puzzle"))
