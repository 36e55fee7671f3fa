#!/usr/bin/env python3
"""Stop 36: medians over rounds of vsym-bench with VSYM_COLL_PCOPY_MIN=0 (every path through the
scratch: files named *_0_*) and auto (the process copies where the library takes them: *_auto_*)
and Open MPI's mpi-coll (mpi_*), src left as the last call read it ("same") and rewritten before
each call ("touch": the records' touch field, vsym-bench and mpi-coll --touch), per rank count.
Usage: touch_table.py DIR..  (the folders of run_publish.sh or of the device's run_s36.sh)"""
import glob, json, os, statistics, sys
from collections import defaultdict

t = defaultdict(list)  # (suite, mode, ranks, size, touch, who) -> [us]
wrong = 0
for d in sys.argv[1:]:
    for f in glob.glob(d + "/*.jsonl"):
        base = os.path.basename(f)
        who = "mpi" if base.startswith("mpi_") else "auto" if "_auto_" in base else "pc0"
        for line in open(f):
            r = json.loads(line)
            if r.get("mode") not in ("out-of-place", "in-place"):
                continue
            touch = bool(r.get("touch") or r.get("config", {}).get("touch"))
            us = r["time_us"] if "time_us" in r else r["lat_us"]["avg"]
            wrong += r.get("wrong") or 0
            t[(r["suite"], r["mode"], r["config"]["ranks"], r["size"], touch, who)].append(us)

def med(k):
    return statistics.median(t[k]) if t.get(k) else float("nan")

print("medians [us]; pc0: VSYM_COLL_PCOPY_MIN=0, auto: the default; a/0 = auto / pc0; "
      "x/M = x / Open MPI; #wrong in all: %d" % wrong)
print("%-10s %-12s %3s %8s | %s" % ("coll", "mode", "np", "bytes", " | ".join(
    "%s: pc0    auto     MPI   a/0  pc0/M auto/M" % g for g in ("same", "touch"))))
for k in sorted({k[:4] for k in t}):
    cells = []
    for touch in (False, True):
        p0, a, m = (med(k + (touch, w)) for w in ("pc0", "auto", "mpi"))
        cells.append("%8.1f %7.1f %7.1f %5.2f %5.2f %6.2f" % (p0, a, m, a / p0, p0 / m, a / m))
    print("%-10s %-12s %3d %8d | %s" % (k[0], k[1], k[2], k[3], " | ".join(cells)))
