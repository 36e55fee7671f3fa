#!/usr/bin/env python3
"""Stop 52's fourth and fifth device runs (run_s52d.sh, run_s52e.sh): per rank count, op, TP
size, buffers and size, AUTO's mode and its speed over the baseline's (speedup_vs_baseline,
median over the rounds) with the old build and the new. Usage: s52de_table.py DIR"""
import collections, glob, json, re, statistics, sys

v = collections.defaultdict(list)
for f in glob.glob(sys.argv[1] + "/*.jsonl"):
    b = re.search(r"\.(old|new)\.jsonl$", f).group(1)
    for line in open(f):
        r = json.loads(line)
        if r["mode"] == "auto" and r["op"] in ("allreduce_allgather", "reducescatter_allreduce"):
            k = (r["config"]["ranks"], r["op"], r["topology"]["local_tp"], r["buffers"], r["size"])
            v[k + (b,)].append((r["speedup_vs_baseline"], r["selected"]))
print("# AUTO's speed over the baseline's (speedup_vs_baseline, median over the rounds) and mode")
for k in sorted({k[:5] for k in v}):
    o, n = v.get(k + ("old",), []), v.get(k + ("new",), [])
    if not o or not n:
        continue
    mo = "/".join(sorted({x[1] for x in o}))
    mn = "/".join(sorted({x[1] for x in n}))
    print("%2d %-23s tp%d %-9s %5d: old %s %.2f | new %s %.2f" % (
        k + (mo, statistics.median(x[0] for x in o), mn, statistics.median(x[0] for x in n))))
