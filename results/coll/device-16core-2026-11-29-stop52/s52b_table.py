#!/usr/bin/env python3
"""Stop 52's second device run (run_s52b.sh): per rank count, op, TP size, buffers and input
size, the baseline's time (us), AUTO's mode and its speed over the baseline's
(speedup_vs_baseline, per launch), the best other mode's, and Open MPI's TP-then-DP sequence
(mpi-coll, float, the same bytes) against AUTO's time. Usage: s52b_table.py DIR"""
import collections, glob, json, os, re, statistics, sys

v = collections.defaultdict(list)
mpi = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.jsonl"))):
    for line in open(f):
        r = json.loads(line)
        if r["tool"] == "mpi-coll":
            tp = int(re.match(r"mpi-tp(\d+)x", r["mode"]).group(1))
            mpi[(r["config"]["ranks"], r["op"], tp, r["size"])].append(r["lat_us"]["avg"])
            continue
        t = r["topology"]
        key = (r["config"]["ranks"], r["op"], t["local_tp"], r["buffers"], r["size"])
        v[key].append(r)
print("ranks op tp buffers size: baseline us | auto (mode) x baseline per launch | best fused "
      "mode x | MPI us, auto/MPI")
for key in sorted(v, key=lambda k: (-k[0], k[1], k[2], k[3], k[4])):
    recs = v[key]
    base = [r["time_us"] for r in recs if r["mode"] == "baseline"]
    auto = [r for r in recs if r["mode"] == "auto"]
    sp = " ".join(f"{r['speedup_vs_baseline']:.2f}" for r in auto)
    sel = "/".join(sorted({r.get("selected", "?") for r in auto}))
    best = {}
    for r in recs:
        if r["mode"] not in ("baseline", "auto"):
            best.setdefault(r["mode"], []).append(r["speedup_vs_baseline"])
    bm = max(best, key=lambda m: statistics.median(best[m])) if best else "-"
    bx = statistics.median(best[bm]) if best else float("nan")
    m = mpi.get((key[0], key[1], key[2], key[4]))
    at = statistics.median(r["time_us"] for r in auto)
    mt = f"{statistics.median(m):8.1f}, {at / statistics.median(m):.2f}" if m else "-"
    print(f"{key[0]:>2} {key[1]:>23} {key[2]:>2} {key[3]:>9} {key[4]:>7}: "
          f"{statistics.median(base):8.1f} | {sp} ({sel}) | {bm} {bx:.2f} | {mt}")
