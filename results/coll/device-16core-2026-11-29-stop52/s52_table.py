#!/usr/bin/env python3
"""Stop 52's device run (run_s52.sh): per rank count, buffers and size, medians over the rounds of
the all-reduce's time (us) with the benchmarks before (old) and after (new) their inputs were
written, vsym-bench's and Open MPI's (mpi-coll), and the ratios: new/old for each, vsym/MPI
before and after. Usage: s52_table.py DIR (the unpacked s52_N folder)"""
import collections, glob, json, os, re, statistics, sys

d = collections.defaultdict(list)
for f in glob.glob(os.path.join(sys.argv[1], "ar.np*.jsonl")):
    np_, v = re.match(r"ar\.np(\d+)\.r\d+\.(\w+)\.jsonl", os.path.basename(f)).groups()
    for line in open(f):
        r = json.loads(line)
        t = r["time_us"] if "time_us" in r else r["lat_us"]["avg"]
        d[(int(np_), r["mode"], r["size"], v)].append(t)
med = lambda k: statistics.median(d[k]) if d.get(k) else float("nan")
for np_ in sorted({k[0] for k in d}, reverse=True):
    for mode in ("out-of-place", "in-place", "out-of-place-symmetric", "in-place-symmetric"):
        mm = "in-place" if mode.startswith("in") else "out-of-place"
        print(f"\n## {np_} ranks, {mode} (MPI: {mm}); medians of {len(d.get((np_, mode, 8, 'new'), []))} rounds, us")
        print(f"{'size':>9} {'old':>9} {'new':>9} {'new/old':>7} {'mpiold':>9} {'mpinew':>9} {'new/old':>7}"
              f" {'vsym/MPI old':>12} {'new':>6}")
        for s in sorted({k[2] for k in d if k[0] == np_ and k[1] == mode}):
            o, n = med((np_, mode, s, "old")), med((np_, mode, s, "new"))
            mo, mn = med((np_, mm, s, "mpiold")), med((np_, mm, s, "mpinew"))
            print(f"{s:>9} {o:9.2f} {n:9.2f} {n / o:7.2f} {mo:9.2f} {mn:9.2f} {mn / mo:7.2f}"
                  f" {o / mo:12.2f} {n / mn:6.2f}")
