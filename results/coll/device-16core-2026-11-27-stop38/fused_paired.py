#!/usr/bin/env python3
"""Stop 38: the fused pairs' time of the baseline / time of a mode, paired within each launch
(both in the same launch, so a machine's state moves both), medians over launches, per ranks,
op, TP x DP, buffers and input size, for AUTO and the one-shot mode. Usage: fused_paired.py DIR
(the records of run_s38_fused.sh, run_s38_rule.sh or the 2-core host's fused launches)."""
import os, statistics, sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fused_rule_table import launches  # noqa: E402

ratios = defaultdict(list)
runs, wrong = launches(sys.argv[1])
for recs in runs:
    for k, t in recs.items():
        if k[5] in ("auto", "oneshot") and k[:5] + ("baseline",) in recs:
            ratios[k].append(recs[k[:5] + ("baseline",)] / t)
print(f"baseline / mode, medians of launches (launches); #wrong {wrong}")
print(f"{'ranks':>5} {'op':24} {'TPxDP':5} {'buffers':9} {'bytes':>6} | {'auto':>11} {'oneshot':>11}")
for k in sorted({k[:5] for k in ratios}):
    cells = []
    for m in ("auto", "oneshot"):
        x = ratios.get(k + (m,))
        cells.append(f"{statistics.median(x):5.2f} ({len(x):2})" if x else f"{'-':>11}")
    print(f"{k[0]:>5} {k[1]:24} {k[2]:5} {k[3]:9} {k[4]:>6} | {cells[0]:>11} {cells[1]:>11}")
