#!/usr/bin/env python3
"""Tables of run_fused.sh's records (unpack fused.tgz, then tables_fused.py fused): per op, TP
split, buffers and input size, the baseline's us in each launch, then each fused mode's and
AUTO's speed-up over the baseline per launch (auto(T): AUTO from the autotune table)."""
import collections, glob, json, os, sys

d = sys.argv[1] if len(sys.argv) > 1 else "fused"
for op in ("reducescatter_allreduce", "allreduce_allgather"):
    t = collections.defaultdict(list)
    for f in sorted(glob.glob(os.path.join(d, op + "_*.jsonl"))):
        tuned = "tuned" in f
        for line in open(f):
            x = json.loads(line)
            if tuned and x["mode"] != "auto":
                continue
            m = x["mode"] + ("(T)" if tuned else "")
            t[(x["topology"]["local_tp"], x["buffers"], x["size"], m)].append(x)
    print("##", op, "(16 ranks)")
    for tp in (2, 4, 8):
        for b in ("ordinary", "symmetric"):
            for s in sorted({k[2] for k in t if k[0] == tp and k[1] == b}):
                base = "/".join("%.0f" % x["time_us"] for x in t.get((tp, b, s, "baseline"), []))
                cells = ["%s %s" % (m, "/".join("%.2f" % x["speedup_vs_baseline"] for x in t[(tp, b, s, m)]))
                         for m in ("oneshot", "twoshot", "auto", "auto(T)") if (tp, b, s, m) in t]
                print(f"  tp {tp} {b} {s >> 10} KiB: baseline {base} us; " + "; ".join(cells))
