#!/usr/bin/env python3
"""Table of ab_tune.sh's records: per build, op, buffers and size, baseline / AUTO of each launch
(AUTO from the launch's own fresh table): the median, the range and how many launches fell under
1.0 and under 1.3; then per build the counts over every row, and the tables' isolated entries
(a bucket unlike both neighbours, which agree). Usage: ab_tune_table.py DIR"""
import glob, json, os, re, statistics as st, sys
from collections import defaultdict

d = sys.argv[1]
ratio = defaultdict(list)
for f in glob.glob(os.path.join(d, "*_*_*.json")):
    m = re.match(r"(old|new)_(\w+)_(\d+)\.json$", os.path.basename(f))
    if not m:
        continue
    build = m.group(1)
    by = defaultdict(dict)
    for line in open(f):
        r = json.loads(line)
        t = r.get("topology", {})
        if (t.get("local_tp"), t.get("local_dp")) != (2, 2):
            continue
        by[(r["op"], r.get("buffers", ""), r["size"])][r["mode"]] = r["time_us"]
    for k, v in by.items():
        if "auto" in v and "baseline" in v:
            ratio[(build,) + k].append(v["baseline"] / v["auto"])
total = defaultdict(lambda: [0, 0, 0])
for k in sorted(ratio, key=lambda k: (k[1], k[2], k[3], k[0])):
    v = ratio[k]
    u1, u13 = sum(x < 1.0 for x in v), sum(x < 1.3 for x in v)
    t = total[k[0]]
    t[0] += len(v); t[1] += u1; t[2] += u13
    print(f"{k[0]} {k[1]:24} {k[2]:10} {k[3]:>7}  median {st.median(v):.2f}  "
          f"{min(v):.2f}-{max(v):.2f}  under 1.0: {u1}/{len(v)}  under 1.3: {u13}/{len(v)}")
for b, t in sorted(total.items()):
    print(f"{b}: {t[0]} launch rows, under 1.0 {t[1]}, under 1.3 {t[2]}")
iso = defaultdict(int)
for f in glob.glob(os.path.join(d, "at_*_*.txt")):
    build = os.path.basename(f).split("_")[1]
    rows = defaultdict(dict)
    key = None
    for line in open(f):
        if line.startswith("key"):
            key = line
        elif line.startswith("entry"):
            _, op, b, mode, _ = line.split()
            rows[(key, op)][int(b)] = mode
    for m in rows.values():
        bs = sorted(m)
        iso[build] += sum(1 for i in range(1, len(bs) - 1)
                          if m[bs[i - 1]] == m[bs[i + 1]] != m[bs[i]])
print("isolated entries over the tables: " + ", ".join(f"{b} {n}" for b, n in sorted(iso.items())))
