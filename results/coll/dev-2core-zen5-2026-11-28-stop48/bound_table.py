#!/usr/bin/env python3
"""The all-reduce's bound fraction from bound_probe.sh's records (one file, or several joined
with a "probe_run" key, as records_bound.jsonl.xz): per run and size, the fastest of
memcpy-bench's copies alone and loaded (every CPU copying), the bound S / that speed (2 ranks:
2(n-1)/n = 1), and bound time / vsym's time per kind of buffers and mode, with the probes' round
trips (ns); then the range per state of the cores: smt (both probes under 100 ns: two threads of
one core), near (under 250), far (250 and over), mixed (the state changed during the size).
Usage: bound_table.py FILE.jsonl"""
import collections
import json
import sys

by = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    e = by.setdefault((r.get("probe_run", 0), r["size"]),
                      {"alone": [], "loaded": [], "ar": [], "rtt": (r["rtt_before"], r["rtt_after"])})
    if r.get("copy"):
        e[r["copy"]].append(r["bw_gbs"]["avg"])
    elif r.get("suite") == "allreduce":
        e["ar"].append(r)
print("run MiB  rtt(before,after)  copy GB/s alone/loaded  mode  us  fraction alone/loaded")
ranges = collections.defaultdict(list)
for (run, s), e in sorted(by.items()):
    lo_rtt, hi_rtt = min(e["rtt"]), max(e["rtt"])
    state = ("mixed" if lo_rtt < 250 <= hi_rtt else "far" if lo_rtt >= 250 else
             "smt" if hi_rtt < 100 else "near")
    alone, loaded = max(e["alone"]), max(e["loaded"])
    for r in e["ar"]:
        t = r["time_us"]
        fa, fl = s / alone / 1e3 / t, s / loaded / 1e3 / t
        ranges[(state, s >> 20, r["mode"])].append((fa, fl))
        print(f"{run:3d} {s >> 20:3d}  {tuple(int(x) for x in e['rtt'])}  {alone:5.1f}/{loaded:5.1f}  "
              f"{r['mode']:23s} {t:8.1f}  {fa:.2f}/{fl:.2f}")
print()
print("state MiB mode: fraction alone (min-max), loaded (min-max), sizes measured")
for k in sorted(ranges):
    v = ranges[k]
    print(f"{k[0]:5s} {k[1]:3d} {k[2]:23s} {min(x[0] for x in v):.2f}-{max(x[0] for x in v):.2f} "
          f"{min(x[1] for x in v):.2f}-{max(x[1] for x in v):.2f} n={len(v)}")
