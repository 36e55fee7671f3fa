#!/usr/bin/env python3
"""Stop 52's eighth device run (run_s52h.sh): per buffers' kind and size, the all-reduce's time
(us) per round for AUTO, the ring and two-shot forced, and Open MPI's, and their medians.
Usage: s52h_table.py DIR"""
import collections, glob, json, re, statistics, sys

d = collections.defaultdict(dict)
for f in glob.glob(sys.argv[1] + "/ar.np8.r*.jsonl"):
    rnd, v = re.search(r"\.r(\d+)\.(\w+)\.jsonl$", f).groups()
    for line in open(f):
        r = json.loads(line)
        t = r["time_us"] if "time_us" in r else r["lat_us"]["avg"]
        modes = [r["mode"]] if v != "mpi" else [r["mode"], r["mode"] + "-symmetric"]
        for m in modes:
            d[(m, r["size"])].setdefault(v, {})[int(rnd)] = t
print("mode size: per variant the rounds' times (us) | median")
for k in sorted(d, key=lambda k: (k[0], k[1])):
    row = []
    for v in ("auto", "ring", "twoshot", "mpi"):
        x = d[k].get(v, {})
        row.append(f"{v} " + " ".join(f"{x[q]:.0f}" for q in sorted(x)) +
                   (f" | {statistics.median(x.values()):.0f}" if x else ""))
    print(f"{k[0]:>22} {k[1]:>9}: " + "; ".join(row))
