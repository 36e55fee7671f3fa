#!/usr/bin/env python3
"""Pool the per-round ratios of several verbs-compare runs (their compare.json files) row by
row: the median over every round, its quartiles, and the ratio of the pooled medians.
  pool.py RUN_DIR... """
import json
import os
import statistics
import sys

runs = [json.load(open(os.path.join(d, "compare.json"))) for d in sys.argv[1:]]
if not runs:
    sys.exit("usage: pool.py RUN_DIR...")
rows = {}
for run in runs:
    for r in run["rows"]:
        rows.setdefault((r["operation"], r["peer"], r["size"]), []).append(r)
print(f"{'operation':<15} {'size':>8} {'rounds':>6} {'median':>7} {'quartiles':>11} "
      f"{'per run':>14} {'ratio of medians':>17}")
for (op, peer, size), rs in rows.items():
    ratios = [x for r in rs for x in r["ratio_rounds"] if x is not None]
    p = [x for r in rs for x in r["perftest_rounds"] if x is not None]
    v = [x for r in rs for x in r["vsym_rounds"] if x is not None]
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    per_run = " ".join(f"{r['ratio']:.3f}" for r in rs if r["ratio"] is not None)
    print(f"{op:<15} {size:>8} {len(ratios):>6} {statistics.median(ratios):>7.3f} "
          f"{q[0]:>5.2f}-{q[2]:<5.2f} {per_run:>14} "
          f"{statistics.median(v) / statistics.median(p):>17.3f}")
