#!/usr/bin/env python3
"""Tables of the streaming push's A/B (run_bf16.sh with DTYPES="f32 bf16" COLLS=allreduce
SIZES="-b 4M -e 64M -f 4"; host and device alike): per rank count, dtype and buffers, median us
old -> new over the rounds (new / old of the medians, of the best rounds), and the fraction of the
bound 2(n-1)/n x S / memcpy speed, memcpy of S alone and with every other CPU copying too
(memcpy.jsonl, memcpy_loaded.jsonl: the fastest copy routine's median, best of its records)."""
import collections, glob, json, os, statistics, sys

d = sys.argv[1] if len(sys.argv) > 1 else "."
t = collections.defaultdict(list)
for f in glob.glob(os.path.join(d, "allreduce_*.jsonl")):
    _, dt, np_, v, _ = os.path.basename(f)[: -len(".jsonl")].split("_")
    for line in open(f):
        r = json.loads(line)
        t[(int(np_[2:]), dt, r["mode"], r["size"], v)].append(r["time_us"])
mc = {}
for name in ("memcpy", "memcpy_loaded"):
    best = {}
    for line in open(os.path.join(d, name + ".jsonl")):
        r = json.loads(line)
        best[r["size"]] = min(best.get(r["size"], 1e30), r["lat_us"]["median"])
    mc[name] = best
med = statistics.median
for n in sorted({k[0] for k in t}):
    for dt in sorted({k[1] for k in t}):
        print(f"## {dt}, {n} ranks: old -> new us (new/old medians, best rounds) "
              f"[bound fraction old -> new; new against loaded memcpy]")
        for mode in ("out-of-place-symmetric", "in-place-symmetric", "out-of-place", "in-place"):
            cells = []
            for s in sorted({k[3] for k in t if k[:3] == (n, dt, mode)}):
                o, nw = t[(n, dt, mode, s, "old")], t[(n, dt, mode, s, "new")]
                b = 2 * (n - 1) / n * mc["memcpy"][s]
                bl = 2 * (n - 1) / n * mc["memcpy_loaded"][s]
                cells.append(f"{s >> 20}M {med(o):.0f}->{med(nw):.0f} ({med(nw) / med(o):.2f}, "
                             f"{min(nw) / min(o):.2f}) [{b / med(o):.2f}->{b / med(nw):.2f}; "
                             f"{bl / med(nw):.2f}]")
            print(f"  {mode}: " + "; ".join(cells))
