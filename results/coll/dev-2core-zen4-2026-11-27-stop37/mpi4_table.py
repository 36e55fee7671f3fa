#!/usr/bin/env python3
"""Stop 37: the all-reduce at 2 or 4 ranks, vsym-bench against Open MPI's mpi-coll, by the cores' state.
vsym rows by their own core_rtt_ns (measured before each size; near under 150 ns, far over 250);
mpi-coll launches by the round trips before and after (file name WHO_rROUND_BEFORE_AFTER.jsonl),
counted only when both agree. Usage: mpi4_table.py DIR"""
import glob, json, os, statistics, sys
from collections import defaultdict

t = defaultdict(list)  # (who, mode, size, state) -> [us]
wrong = 0
ranks = set()
for f in glob.glob(sys.argv[1] + "/*_r*_*_*.jsonl"):
    who, _, a, b = os.path.basename(f)[:-6].split("_")
    launch = "near" if int(a) < 150 and int(b) < 150 else "far" if int(a) > 250 and int(b) > 250 else None
    for line in open(f):
        r = json.loads(line)
        if r.get("suite") != "allreduce":
            continue
        wrong += max(r.get("wrong") or 0, 0)
        ranks.add(r["config"]["ranks"])
        us = r["time_us"] if "time_us" in r else r["lat_us"]["avg"]
        if who == "vsym":
            rtt = r.get("core_rtt_ns")
            st = None if rtt is None else "near" if rtt < 150 else "far" if rtt > 250 else None
        else:
            st = launch
        if st:
            t[(who, r["mode"], r["size"], st)].append(us)

def med(k):
    return statistics.median(t[k]) if t.get(k) else float("nan")

print(f"all-reduce f32, {sorted(ranks)} ranks on 2 cores; medians [us] (samples); #wrong {wrong}")
print(f"{'mode':22} {'bytes':>9} | {'near vsym':>14} {'MPI':>14} {'v/M':>5} | "
      f"{'far vsym':>14} {'MPI':>14} {'v/M':>5}")
for mode in ("out-of-place", "in-place", "out-of-place-symmetric", "in-place-symmetric"):
    for size in sorted({k[2] for k in t}):
        row = f"{mode:22} {size:>9} |"
        for st in ("near", "far"):
            v, m = med(("vsym", mode, size, st)), med(("mpi", mode.replace("-symmetric", ""), size, st))
            nv, nm = len(t.get(("vsym", mode, size, st), [])), len(t.get(("mpi", mode.replace("-symmetric", ""), size, st), []))
            row += f" {v:9.1f} ({nv:2}) {m:9.1f} ({nm:2}) {v / m:5.2f} |"
        print(row)
