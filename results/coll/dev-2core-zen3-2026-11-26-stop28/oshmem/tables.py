#!/usr/bin/env python3
"""run.sh's tables: per collective and rank count, median us per call over the rounds (out of
place) of vsym from ordinary buffers, vsym from symmetric buffers (vsym_coll_buffer_alloc; OSHMEM's
buffers are symmetric too), Open MPI's MPI and Open MPI's OSHMEM, and the ratios MPI / vsym and
OSHMEM / vsym (symmetric).   tables.py OUT_DIR [NPS, default 2,4]"""
import collections
import glob
import re
import statistics as st
import sys

R = sys.argv[1]
NPS = [int(x) for x in sys.argv[2].split(",")] if len(sys.argv) > 2 else [2, 4]
t = collections.defaultdict(list)  # (prog, kind, np, size) -> [us]
for f in glob.glob(f"{R}/*_r*.txt"):
    m = re.match(r".*/(vsym|mpi|oshmem)_(?:(\w+)_)?np(\d+)_r\d+\.txt", f)
    prog, kind, np = m.group(1), m.group(2), int(m.group(3))
    table = 0
    cur = kind
    for line in open(f):
        if prog == "vsym" and line.startswith("# " + kind):
            table += 1
            continue
        if prog == "oshmem" and line.startswith("# "):
            cur = line.split()[1]
            continue
        p = line.split()
        if not p or not p[0].isdigit():
            continue
        if prog == "vsym" and len(p) >= 10 and table in (1, 2):
            t[("vsym" if table == 1 else "vsym-sym", kind, np, int(p[0]))].append(float(p[2]))
        elif prog == "mpi" and len(p) >= 5 and p[4] == "out-of-place":
            t[("mpi", kind, np, int(p[0]))].append(float(p[1]))
        elif prog == "oshmem" and len(p) >= 6 and p[5] == "out-of-place":
            t[("oshmem", cur, np, int(p[0]))].append(float(p[1]))
for kind in ("allreduce", "allgather", "broadcast", "alltoall"):
    for np in NPS:
        sizes = sorted({k[3] for k in t if k[1] == kind and k[2] == np and k[0] == "vsym"})
        if not sizes:
            continue
        print(f"## {kind}, {np} ranks: size | vsym | vsym sym | MPI | OSHMEM (us, medians) |"
              " MPI/vsym | OSHMEM/vsym-sym")
        for s in sizes:
            v = {p: st.median(t[(p, kind, np, s)]) if t[(p, kind, np, s)] else float("nan")
                 for p in ("vsym", "vsym-sym", "mpi", "oshmem")}
            print(f"{s:9d} | {v['vsym']:9.2f} | {v['vsym-sym']:9.2f} | {v['mpi']:9.2f} |"
                  f" {v['oshmem']:9.2f} | {v['mpi'] / v['vsym']:6.2f} |"
                  f" {v['oshmem'] / v['vsym-sym']:6.2f}")
