#!/usr/bin/env python3
"""Tables of run_s49.sh's records (the folder of the unpacked OUT/s49.tgz): per collective, rank
count, way (mode, buffers) and size, the median time of the old and new builds over the rounds
and old / new; then per collective and rank count the range of old / new and its median.
Usage: table_s49.py DIR"""
import glob, json, os, re, statistics as st, sys
from collections import defaultdict

t = defaultdict(list)
wrong = 0
for f in glob.glob(os.path.join(sys.argv[1], "*.jsonl")):
    m = re.match(r"(.+)\.np(\d+)\.(?:(\w+)\.)?r(\d+)\.(old|new)\.jsonl$", os.path.basename(f))
    if not m:
        continue
    suite, np, op, _, build = m.groups()
    name = f"{suite}{'.' + op if op else ''} np{np}"
    for line in open(f):
        r = json.loads(line)
        way = r["mode"] + ("/" + r["buffers"] if "buffers" in r else "")
        if "topology" in r:
            way += " %dx%d" % (r["topology"]["local_tp"], r["topology"]["local_dp"])
        t[(name, way, r["size"], build)].append(r["time_us"])
        wrong += r.get("wrong") or 0
print(f"# #wrong over every record: {wrong}")
per = defaultdict(list)
for (name, way, size, build) in sorted(k for k in t if k[3] == "old"):
    o, n = t[(name, way, size, "old")], t.get((name, way, size, "new"), [])
    if len(n) != len(o):
        continue
    mo, mn = st.median(o), st.median(n)
    per[name].append(mo / mn)
    print(f"{name:34} {way:30} {size:>9} old {mo:10.2f} new {mn:10.2f} us  old/new {mo / mn:5.2f}"
          f"  ({len(o)} rounds)")
print()
for name, v in sorted(per.items()):
    print(f"{name:34} old/new over {len(v):3} rows: median {st.median(v):.3f}, "
          f"{min(v):.2f}-{max(v):.2f}; below 0.9: {sum(x < 0.9 for x in v)}, above 1.1: "
          f"{sum(x > 1.1 for x in v)}")
