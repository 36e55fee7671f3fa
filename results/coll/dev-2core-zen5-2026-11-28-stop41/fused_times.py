#!/usr/bin/env python3
"""AUTO's and the baseline's time per call at 4 ranks, TP 2 x DP 2, by build, in the launches of
stop 39's ab_tune.sh (files old_N.json, new_N.json): medians over launches and the median of the
paired new / old ratios.  Usage: fused_times.py DIR"""
import glob, json, os, statistics, sys
from collections import defaultdict

t = defaultdict(dict)  # (op, buffers, size, mode) -> {(build, launch): us}
for f in glob.glob(os.path.join(sys.argv[1], "*_*.json")):
    build, launch = os.path.basename(f)[:-5].split("_")
    for line in open(f):
        r = json.loads(line)
        tp = r.get("topology", {})
        if r.get("suite") != "fused" or (tp.get("local_tp"), tp.get("local_dp")) != (2, 2):
            continue
        if r["mode"] in ("auto", "baseline"):
            t[(r["op"], r["buffers"], r["size"], r["mode"])][(build, launch)] = r["time_us"]
print(f"{'op':>24} {'buffers':>9} {'bytes':>7} {'mode':>8}: old us -> new us, new/old (launches)")
for k in sorted(t):
    pairs = [(v, t[k][("new", n)]) for (b, n), v in t[k].items() if b == "old" and ("new", n) in t[k]]
    if not pairs:
        continue
    o = statistics.median(p[0] for p in pairs)
    n = statistics.median(p[1] for p in pairs)
    r = statistics.median(p[1] / p[0] for p in pairs)
    print(f"{k[0]:>24} {k[1]:>9} {k[2]:>7} {k[3]:>8}: {o:8.1f} -> {n:8.1f}  {r:.2f} ({len(pairs)})")
