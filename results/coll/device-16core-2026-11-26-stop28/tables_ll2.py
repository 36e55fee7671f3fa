#!/usr/bin/env python3
"""run_ll2.sh's tables: the 2-rank all-reduce per size, us per call, median [min-max] over the
rounds of each configuration (VSYM_COLL_LL_MAX -1, 256, 0; vsym: the better of out of place and in
place, ordinary buffers; Open MPI: out of place).   tables_ll2.py DIR   (ll2.tgz unpacked)"""
import collections
import glob
import re
import statistics as st
import sys

d = collections.defaultdict(dict)
for f in glob.glob(f"{sys.argv[1]}/*_r*.txt"):
    cfg, r = re.match(r".*/(ll-?\d+|mpi)_r(\d+)\.txt", f).groups()
    table = 0
    for line in open(f):
        if line.startswith("# allreduce"):
            table += 1
            continue
        p = line.split()
        if cfg == "mpi":
            if len(p) >= 4 and p[0].isdigit() and "out-of-place" in line:
                d[(cfg, int(p[0]))][r] = float(p[1])
        elif table == 1 and len(p) >= 10 and p[0].isdigit():
            d[(cfg, int(p[0]))][r] = min(float(p[2]), float(p[6]))
print("size | LL_MAX -1 (1 KiB) | LL_MAX 256 | LL_MAX 0 | Open MPI")
for s in sorted({k[1] for k in d}):
    cells = []
    for c in ("ll-1", "ll256", "ll0", "mpi"):
        v = list(d[(c, s)].values())
        cells.append(f"{st.median(v):.3f} [{min(v):.3f}-{max(v):.3f}]")
    print(f"{s:5d} | " + " | ".join(cells))
