#!/usr/bin/env python3
"""ab_bcll.sh's records: per size and mode, medians over the rounds of the old and new builds'
time and of Open MPI's MPI_Bcast, old / new and new / Open MPI. Usage: ab_bcll_table.py OUT"""
import glob, json, os, statistics as st, sys
from collections import defaultdict

out = sys.argv[1]
t = defaultdict(list)
wrong = 0
for f in glob.glob(os.path.join(out, "*_bc_*.json")):
    who = os.path.basename(f).split("_")[0]
    for line in open(f):
        r = json.loads(line)
        if r.get("op") != "broadcast":
            continue
        # vsym-bench's time_us; mpi-coll's average, as benches/peers/compare takes it
        t[(who, r["mode"], r["size"])].append(r["time_us"] if "time_us" in r else r["lat_us"]["avg"])
        wrong += r.get("wrong") or 0
rf = os.path.join(out, "rtt.txt")
rtt = [l.split()[1] for l in open(rf)] if os.path.exists(rf) else ["(not probed)"]
print(f"# #wrong: {wrong}; line round trip before each round (ns): {' '.join(rtt)}")
print(f"{'mode':26} {'bytes':>6} {'old':>7} {'new':>7} {'OpenMPI':>8} {'old/new':>8} {'new/MPI':>8}")
for (who, mode, size) in sorted(k for k in t if k[0] == "old"):
    o, n = st.median(t[("old", mode, size)]), st.median(t[("new", mode, size)])
    m = t.get(("mpi", "out-of-place", size)) or t.get(("mpi", mode, size))
    mm = st.median(m) if m else float("nan")
    print(f"{mode:26} {size:>6} {o:7.3f} {n:7.3f} {mm:8.3f} {o / n:8.2f} {n / mm:8.2f}")
