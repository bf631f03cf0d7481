"""The interleaved rounds and the table of dlx.sh (see its header): runs the OLD and NEW
builds of benches/dlx_bench.rs round after round, set after set, and prints per set the
median rates, the ratio new / old and each round's ratio; checks that both builds searched
the same number of nodes per pass.

    python3 scripts/bench/dlx.py OLD_BIN NEW_BIN OLD_REF ROUNDS SECS SPEC SET...
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

old_bin, new_bin, old_ref, rounds, secs, spec, *sets = sys.argv[1:]
rounds = int(rounds)
print(benchlib.header(f"old {old_ref}, new {benchlib.commit()}; {rounds} rounds x {secs} CPU s;"
                      f" engine {spec}; count to 2"), flush=True)
out = {(s, kind): "" for s in sets for kind in ("old", "new")}
for _ in range(rounds):
    for s in sets:
        for kind, exe in (("old", old_bin), ("new", new_bin)):
            out[(s, kind)] += subprocess.run([exe, "solve", s, secs, spec], capture_output=True,
                                             text=True, check=True).stdout
print(f"{'set':22} {'old':>12} {'new':>12} {'new/old':>8} {'rounds':>8}  per-round ratios")
for s in sets:
    name = os.path.basename(s).removesuffix(".txt")
    old, new = (benchlib.rates(out[(s, k)], "rate_cpu") for k in ("old", "new"))
    # Nodes per pass: equal when the change leaves the search alone.
    on, nn = ({int(n) // int(p) for n, p in zip(benchlib.rates(out[(s, k)], "nodes"),
                                                benchlib.rates(out[(s, k)], "passes"))}
              for k in ("old", "new"))
    if on != nn:
        print(f"{name}: NODE TOTALS DIFFER old {on} new {nn}")
    ratios = " ".join(f"{b / a:.2f}" for a, b in zip(old, new))
    mo, mn = benchlib.median(old), benchlib.median(new)
    print(f"{name:22} {mo:10.0f}/s {mn:10.0f}/s {mn / mo:7.3f}x {len(old):8}  {ratios}")
print(benchlib.load_after("rates = puzzles per thread-CPU second (median of the rounds)"))
