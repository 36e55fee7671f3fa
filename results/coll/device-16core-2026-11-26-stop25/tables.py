#!/usr/bin/env python3
"""Tables of a stop-25 collective run: for each collective, rank count and size, vsym's
out-of-place time from ordinary buffers and (where the suite sweeps them) from symmetric ones
(median over the rounds, us, with the path the library ran), Open MPI's (mpi-coll: the average
per call, median over the rounds) and MPI / vsym.
    tables.py RUN_DIR   (an unpacked run.tgz or run2.tgz: RUN_DIR/run*/*.jsonl)"""
import glob, json, os, statistics, sys
from collections import defaultdict

vs, mp, path = defaultdict(list), defaultdict(list), {}
fused = defaultdict(dict)  # (n, buffers, split) -> size -> (mode -> speed-up over the baseline)
for f in glob.glob(os.path.join(sys.argv[1], "run*", "fused_np*.jsonl")):
    for line in open(f):
        r = json.loads(line)
        t = r["topology"]
        split = f"tp{t['local_tp'] * t['inter_tp']}xdp{t['local_dp'] * t['inter_dp']}"
        key = (r["config"]["ranks"], r["buffers"], split)
        if r.get("wrong") not in (0, None):
            print(f"WRONG: {f} {split} {r['size']} {r['mode']}: {r['wrong']}")
        fused[key].setdefault(r["size"], {})[r["mode"]] = r["speedup_vs_baseline"]
for f in glob.glob(os.path.join(sys.argv[1], "run*", "*_np*_r*.jsonl")):
    tool, kind, npx, _ = os.path.basename(f)[:-6].split("_")
    n = int(npx[2:])
    for line in open(f):
        r = json.loads(line)
        if r.get("mode") not in ("out-of-place", "out-of-place-symmetric"):
            continue
        key = (kind, n, r["size"], r["mode"].endswith("symmetric"))
        if tool == "vsym":
            if r.get("wrong") not in (0, None):
                print(f"WRONG: {f} {r['size']}: {r['wrong']}")
            vs[key].append(r["time_us"])
            path[key] = r.get("path")
        else:
            mp[key].append(r["lat_us"]["avg"])


def size(s):
    for u, k in (("M", 1 << 20), ("K", 1 << 10)):
        if s >= k and s % k == 0:
            return f"{s // k}{u}"
    return str(s)


def med(v):
    return statistics.median(v) if v else float("nan")


for kind in ("allgather", "reduce-scatter", "broadcast", "alltoall", "allreduce"):
    for n in sorted({k[1] for k in vs if k[0] == kind}):
        sym = any(k[3] for k in vs if k[0] == kind and k[1] == n)
        print(f"\n{kind}, {n} ranks (us; rounds in brackets; MPI / vsym)")
        for s in sorted({k[2] for k in vs if k[0] == kind and k[1] == n}):
            m = med(mp.get((kind, n, s, False), []))
            line = f"  {size(s):>5}  mpi {m:9.2f}"
            for sy in ((False, True) if sym else (False,)):
                v = vs.get((kind, n, s, sy), [])
                rounds = "/".join(f"{x:.1f}" for x in v)
                line += (f" | {'sym' if sy else 'ord'} {med(v):9.2f} ({rounds}) {m / med(v):6.2f}"
                         f" {path.get((kind, n, s, sy))}")
            print(line)

for key in sorted(fused):
    n, buffers, split = key
    print(f"\nfused reducescatter_allreduce, {n} ranks, {split}, {buffers} buffers: size  "
          "best mode / baseline  auto / baseline  (median over 5 paired rounds)")
    for sz in sorted(fused[key]):
        m = fused[key][sz]
        best = max(v for k, v in m.items() if k not in ("baseline", "auto") and v)
        print(f"  {size(sz):>5}  {best:5.2f}  {m.get('auto') or float('nan'):5.2f}")
