#!/usr/bin/env python3
"""The broadcast at 8 and 16 ranks next to Open MPI's MPI_Bcast (stop 26): for each rank count
and size, vsym's time per call (median over the rounds, us) from ordinary and from symmetric
buffers, out of place and in place, the path the library ran, Open MPI's (mpi-coll: the average
per call, median over the rounds) and MPI / vsym.
    tables.py RUN_DIR   (an unpacked run tgz: RUN_DIR/*/vsym_broadcast_np*_r*.jsonl)"""
import glob, json, os, statistics, sys
from collections import defaultdict

vs, mp, path = defaultdict(list), defaultdict(list), {}
for f in glob.glob(os.path.join(sys.argv[1], "*", "*_broadcast_np*_r*.jsonl")):
    tool, _, npx, _ = os.path.basename(f)[:-6].split("_")
    n = int(npx[2:])
    for line in open(f):
        r = json.loads(line)
        if tool == "vsym":
            if r.get("wrong") not in (0, None):
                print(f"WRONG: {f} {r['size']} {r['mode']}: {r['wrong']}")
            vs[(n, r["size"], r["mode"])].append(r["time_us"])
            path[(n, r["size"], r["mode"])] = r.get("path")
        else:
            mp[(n, r["size"])].append(r["lat_us"]["avg"])


def size(s):
    for u, k in (("M", 1 << 20), ("K", 1 << 10)):
        if s >= k and s % k == 0:
            return f"{s // k}{u}"
    return str(s)


med = lambda v: statistics.median(v) if v else float("nan")
modes = ("out-of-place", "in-place", "out-of-place-symmetric", "in-place-symmetric")
for n in sorted({k[0] for k in vs}):
    print(f"\nbroadcast, {n} ranks: time per call (us), median of rounds; MPI / vsym")
    print(f"{'size':>6} {'MPI':>8} " + " ".join(f"{m:>27}" for m in modes))
    for s in sorted({k[1] for k in vs if k[0] == n}):
        m = med(mp[(n, s)])
        cells = []
        for mode in modes:
            v = med(vs[(n, s, mode)])
            p = path.get((n, s, mode), "").replace("symmetric-in-place", "sym-in-place")
            cells.append(f"{v:8.2f} {m / v:5.2f} {p:>12}")
        print(f"{size(s):>6} {m:8.2f} " + " ".join(cells))
