#!/usr/bin/env python3
"""Medians of var.sh's lines per (mode, size) and variant, and each variant's ratio to the first
(time / the first's: below 1 faster). Usage: var_table.py RAW"""
import collections, statistics, sys

d = collections.defaultdict(list)
names = []
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) < 4:
        continue
    if p[0] not in names:
        names.append(p[0])
    d[(p[1], int(p[2]), p[0])].append(float(p[3]))
print(f"{'mode':>24} {'size':>9} " + " ".join(f"{n:>10}" for n in names) + "   ratios to " + names[0])
for k in sorted({k[:2] for k in d}):
    m = [statistics.median(d[k + (n,)]) if d.get(k + (n,)) else float("nan") for n in names]
    print(f"{k[0]:>24} {k[1]:>9} " + " ".join(f"{x:10.1f}" for x in m) + "   "
          + " ".join(f"{x / m[0]:.2f}" for x in m[1:]))
