#!/usr/bin/env python3
"""ab.sh's table: per suite, mode and size, the medians of auto's and the value's times (us; put
and get: size / bandwidth) and min-max over rounds of auto / value (over 1: the value faster).
  python3 ab_table.py OUT VALUE"""
import collections
import glob
import json
import statistics as st
import sys

out, value = sys.argv[1], sys.argv[2]
d = collections.defaultdict(list)
for f in glob.glob(out + "/*.jsonl"):
    v, rnd, suite = f.split("/")[-1][:-6].split("-", 2)
    for line in open(f):
        x = json.loads(line)
        t = x.get("time_us")
        if t is None:
            t = x["size"] / (x["bw_gbs"]["avg"] * 1e3)
        d[(suite, x["mode"], x["size"], v)].append((int(rnd), t))
for k in sorted({k[:3] for k in d}):
    a, b = dict(d.get(k + ("auto",), [])), dict(d.get(k + (value,), []))
    rounds = sorted(set(a) & set(b))
    if not rounds:
        continue
    r = [a[i] / b[i] for i in rounds]
    ma, mb = st.median(a.values()), st.median(b.values())
    print(f"{k[0]:>16} {k[1]:>22} {k[2]:>9}  auto {ma:8.0f}  {value} {mb:8.0f}  "
          f"auto/{value} {min(r):.2f}-{max(r):.2f} (medians {ma / mb:.2f})")
