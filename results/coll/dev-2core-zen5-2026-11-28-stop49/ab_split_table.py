#!/usr/bin/env python3
"""Tables of stop 49's A/B of two vsym-bench builds: per collective (and rank count), way (mode,
buffers, fused split) and size, the median time of the old and new builds over the rounds and
old / new; then per collective the range of old / new and its median (records without a time per
call, as puts', by their mean time of one unit, lat_us.avg). Reads the records of ab_split.sh
(OUT/{old,new}_NAME_ROUND.json) or of the device's run_s49.sh and run_s49b.sh (the unpacked
folder: SUITE.npN[.OP].rROUND.{old,new}.jsonl). Usage: ab_split_table.py DIR"""
import glob, json, os, re, statistics as st, sys
from collections import defaultdict

t = defaultdict(list)  # (name, way, size, build) -> times
rtt = defaultdict(list)
wrong = 0
for f in glob.glob(os.path.join(sys.argv[1], "*.json*")):
    base = os.path.basename(f)
    m = re.match(r"(.+)\.np(\d+)\.(?:(\w+)\.)?r(\d+)\.(old|new)\.jsonl$", base)
    h = re.match(r"(old|new)_([^_]+)_(\d+)\.json$", base)
    if m:
        suite, np, op, _, build = m.groups()
        name = f"{suite}{'.' + op if op else ''} np{np}"
    elif h:
        build, name, _ = h.groups()
    else:
        continue
    for line in open(f):
        r = json.loads(line)
        way = r["mode"] + ("/" + r["buffers"] if "buffers" in r else "")
        if "topology" in r:
            way += " %dx%d" % (r["topology"]["local_tp"], r["topology"]["local_dp"])
        # a collective's time per call, else (puts, gets) the mean time of one unit
        t[(name, way, r["size"], build)].append(r["time_us"] if "time_us" in r else r["lat_us"]["avg"])
        wrong += r.get("wrong") or 0
        if r.get("core_rtt_ns"):
            rtt[build].append(r["core_rtt_ns"])
print(f"# #wrong over every record: {wrong}; core_rtt_ns (median, range) "
      + (", ".join(f"{b} {st.median(v):.0f} ({min(v):.0f}-{max(v):.0f})"
                   for b, v in sorted(rtt.items())) or "none"))
w = max([len(k[0]) for k in t] + [5])
per = defaultdict(list)
for (name, way, size, build) in sorted(k for k in t if k[3] == "old"):
    o, n = t[(name, way, size, "old")], t.get((name, way, size, "new"), [])
    if len(n) != len(o):
        continue
    mo, mn = st.median(o), st.median(n)
    per[name].append(mo / mn)
    print(f"{name:{w}} {way:32} {size:>9} old {mo:10.2f} new {mn:10.2f} us  old/new {mo / mn:5.2f}"
          f"  ({len(o)} rounds)")
print()
for name, v in sorted(per.items()):
    print(f"{name:{w}} old/new over {len(v):3} rows: median {st.median(v):.3f}, "
          f"{min(v):.2f}-{max(v):.2f}; below 0.9: {sum(x < 0.9 for x in v)}, above 1.1: "
          f"{sum(x > 1.1 for x in v)}")
