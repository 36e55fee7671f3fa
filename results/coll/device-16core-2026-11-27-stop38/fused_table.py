#!/usr/bin/env python3
"""Stop 38: the fused suite's records of run_s38.sh, the build before (s37: 16-byte LL units)
against this stop's (s38: 64-byte lines): medians [us] over rounds of the one-shot mode and of
auto, per ranks, op, TP x DP and size, ordinary buffers; ratio s38/s37. Usage: fused_table.py DIR"""
import glob, json, os, statistics, sys
from collections import defaultdict

t = defaultdict(list)
wrong = 0
for f in glob.glob(sys.argv[1] + "/fused_*.jsonl"):
    v = os.path.basename(f).split("_")[2]
    for line in open(f):
        r = json.loads(line)
        wrong += max(r.get("wrong") or 0, 0)
        if r["buffers"] != "ordinary" or r["mode"] not in ("oneshot", "auto"):
            continue
        tp = r["topology"]["local_tp"] * r["topology"]["inter_tp"]
        dp = r["topology"]["local_dp"] * r["topology"]["inter_dp"]
        t[(r["config"]["ranks"], r["op"], f"{tp}x{dp}", r["mode"], r["size"], v)].append(r["time_us"])
print(f"fused ops, ordinary buffers, medians [us] s37 / s38 (ratio); #wrong {wrong}")
for k in sorted({k[:5] for k in t}):
    a, b = t.get(k + ("s37",)), t.get(k + ("s38",))
    if a and b:
        ma, mb = statistics.median(a), statistics.median(b)
        print(f"{k[0]:3} {k[1]:24} {k[2]:5} {k[3]:8} {k[4]:6} | {ma:7.2f} {mb:7.2f} ({mb / ma:4.2f})")
