#!/usr/bin/env python3
"""llab.txt: eight rounds of the 2-rank all-reduce at 64 B-1 KiB with VSYM_COLL_LL_MAX -1 (then 1
KiB at 2 ranks), 256 and 0 and Open MPI, in turns (lines: round, config, size, out-of-place us,
in-place us). This host runs a whole launch at one of two speeds, so each launch's time at a size
is divided by its own time at 128 B; medians of those ratios over the rounds, and medians of the
times.   llab.py [llab.txt]"""
import statistics as st
import sys

d = {}
for line in open(sys.argv[1] if len(sys.argv) > 1 else "llab.txt"):
    r, cfg, s, a, b = line.split()
    d[(r, cfg, int(s))] = min(float(a), float(b))
rounds = sorted({k[0] for k in d})
print("size | config: median us, median time / own 128 B time")
for s in (64, 128, 256, 512, 1024):
    cells = []
    for cfg in ("-1", "256", "0", "mpi"):
        t = [d[(r, cfg, s)] for r in rounds]
        rel = [d[(r, cfg, s)] / d[(r, cfg, 128)] for r in rounds]
        cells.append(f"{cfg}: {st.median(t):.2f} us, {st.median(rel):.2f}")
    print(f"{s:5d} | " + " | ".join(cells))
