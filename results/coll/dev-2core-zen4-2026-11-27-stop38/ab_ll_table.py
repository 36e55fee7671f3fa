#!/usr/bin/env python3
"""Stop 38: medians of ab_ll.sh's records by the cores' state: every row by its own core_rtt_ns
(near under 150 ns, far over 250; Open MPI's launches of the first run, whose records had none,
by the round trips before and after in the file name, both agreeing). Columns: old (16-byte LL units), new (64-byte lines), ll (new with the larger LL
limit), MPI; ratios new/old, ll/new, new/MPI (the device run's s37 and s38 are old and new;
STATES=all puts every row in the first column).
Usage: ab_ll_table.py DIR (the records of this folder: tar xJf records_v3.txz, then DIR v3)"""
import glob, json, os, statistics, sys
from collections import defaultdict

t = defaultdict(list)  # (suite, np, mode, size, state, who) -> [us]
wrong = 0
for f in glob.glob(sys.argv[1] + "/*.jsonl"):
    parts = os.path.basename(f)[:-6].split("_")
    launch = None
    if parts[0] == "mpi":
        if len(parts) == 5:
            a, b = int(parts[3]), int(parts[4])
            launch = "near" if a < 150 and b < 150 else "far" if a > 250 and b > 250 else None
        who = "mpi"
    else:
        who = {"s37": "old", "s38": "new", "s38b": "ll"}.get(parts[2], parts[2])  # the device runs
    for line in open(f):
        r = json.loads(line)
        wrong += max(r.get("wrong") or 0, 0)
        if r["suite"] == "fused":
            continue
        x = r.get("core_rtt_ns")
        st = None if x is None else "near" if x < 150 else "far" if x > 250 else None
        if os.environ.get("STATES") == "all":  # the device run: one state, every row "near"
            st, launch = "near", "near"
        if who == "mpi" and x is None:
            st = launch
        us = r["lat_us"]["avg"] if who == "mpi" else r["time_us"]
        if st:
            t[(r["suite"], r["config"]["ranks"], r["mode"], r["size"], st, who)].append(us)

def med(k):
    return statistics.median(t[k]) if t.get(k) else float("nan")

print(f"medians [us] (rows: old,new,ll,mpi); #wrong {wrong}")
for suite, np in sorted({(k[0], k[1]) for k in t}):
    print(f"\n{suite}, {np} ranks")
    hdr = " ".join(f"{x:>9}" for x in ("old", "new", "ll", "MPI"))
    print(f"{'mode':22} {'bytes':>8} | near {hdr} {'n/o':>5} {'l/n':>5} {'n/M':>5} {'rows':>12} |"
          f"  far {hdr} {'n/o':>5} {'l/n':>5} {'n/M':>5} {'rows':>12} |")
    for mode in ("out-of-place", "in-place", "out-of-place-symmetric", "in-place-symmetric"):
        for size in sorted({k[3] for k in t if k[0] == suite and k[1] == np and k[2] == mode}):
            row = f"{mode:22} {size:>8} |     "
            for st in ("near", "far"):
                m = mode.replace("-symmetric", "")
                o, n, l, p = (med((suite, np, mode if w != "mpi" else m, size, st, w))
                              for w in ("old", "new", "ll", "mpi"))
                cnt = ",".join(str(len(t.get((suite, np, mode if w != "mpi" else m, size, st, w), [])))
                               for w in ("old", "new", "ll", "mpi"))
                row += (f" {o:9.2f} {n:9.2f} {l:9.2f} {p:9.2f} {n / o:5.2f} {l / n:5.2f} {n / p:5.2f}"
                        f" {cnt:>12} |     ")
            print(row)
