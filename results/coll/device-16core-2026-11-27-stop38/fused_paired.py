#!/usr/bin/env python3
"""Stop 38: the fused pairs' time of the baseline / time of a mode, paired within each launch
(both in the same launch, so a machine's state moves both), medians over launches, per ranks,
op, TP x DP, buffers and input size, for AUTO and the one-shot mode. Usage: fused_paired.py DIR
(the records of run_s38_fused.sh, run_s38_rule.sh or the 2-core host's fused launches)."""
import glob, json, statistics, sys
from collections import defaultdict

ratios = defaultdict(list)
wrong = 0
for f in glob.glob(sys.argv[1] + "/fused_*.jsonl"):
    recs = {}
    for line in open(f):
        r = json.loads(line)
        wrong += max(r.get("wrong") or 0, 0)
        if r["op"] not in ("allreduce_allgather", "reducescatter_allreduce"):
            continue
        tp = r["topology"]["local_tp"] * r["topology"]["inter_tp"]
        dp = r["topology"]["local_dp"] * r["topology"]["inter_dp"]
        recs[(r["config"]["ranks"], r["op"], f"{tp}x{dp}", r["buffers"], r["size"], r["mode"])] = (
            r["time_us"])
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
