#!/usr/bin/env python3
"""Tables of stop 50's device runs (run_s50.sh, run_s50b.sh): per suite, rank count, mode
(/sym: symmetric buffers) and size, each variant's median time over the rounds (with their
count) and its ratio to the first variant listed (old, new, xs, oneshot, mpi, sm32k: time /
the first's, below 1 faster). Usage: s50_table.py DIR [DIR...] (the unpacked run folders)"""
import glob, json, os, re, statistics as st, sys
from collections import defaultdict
t=defaultdict(list); wrong=0
for d in sys.argv[1:]:
  for f in glob.glob(os.path.join(d,"*.jsonl")):
    m=re.match(r"(.+)\.np(\d+)\.r(\d+)\.(\w+)\.jsonl$",os.path.basename(f))
    if not m: continue
    s,np,rd,v=m.groups()
    for l in open(f):
      r=json.loads(l)
      tm=r["time_us"] if "time_us" in r else r["lat_us"]["avg"]
      buf="/sym" if r.get("buffers")=="symmetric" or "symmetric" in r["mode"] else ""
      mode=r["mode"].replace("-symmetric","")
      t[(s,int(np),mode+buf,r["size"],v)].append(tm); wrong+=r.get("wrong") or 0
print("wrong",wrong)
keys=sorted({k[:4] for k in t})
for k in keys:
  vs=[v for v in ("old","new","xs","oneshot","mpi","sm32k") if (k+(v,)) in t]
  base=vs[0]; mb=st.median(t[k+(base,)])
  print(f"{k[0]:>15} np{k[1]:<3}{k[2]:>18}{k[3]:>10} "+" ".join(f"{v}={st.median(t[k+(v,)]):9.1f}({len(t[k+(v,)])})" for v in vs)+"  "+" ".join(f"{v}/{base}={st.median(t[k+(v,)])/mb:.2f}" for v in vs[1:]))
