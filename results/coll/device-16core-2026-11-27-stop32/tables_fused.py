#!/usr/bin/env python3
"""Tables of run_fused.sh's and run_tuned.sh's records (unpack fused.tgz or tuned.tgz, then
tables_fused.py fused|tuned): per op, rank count, AUTO's source (rule: no table; tuned: the
autotune table), TP split, buffers and input size, the baseline's us in each launch, then each
fused mode's and AUTO's speed-up over the baseline per launch."""
import collections, glob, json, os, sys

d = sys.argv[1] if len(sys.argv) > 1 else "fused"
t = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(d, "*.jsonl"))):
    name = os.path.basename(f)
    op, how = name.split("_")[0] + "_" + name.split("_")[1], "tuned" if "tuned" in name else "rule"
    for line in open(f):
        x = json.loads(line)
        t[(op, x["config"]["ranks"], how, x["topology"]["local_tp"], x["buffers"], x["size"],
           x["mode"])].append(x)
for op, n, how in sorted({k[:3] for k in t}):
    print(f"## {op}, {n} ranks, AUTO from the {'autotune table' if how == 'tuned' else 'rule'}")
    for tp in (1, 2, 4, 8, 16):
        for b in ("ordinary", "symmetric"):
            for s in sorted({k[5] for k in t if k[:5] == (op, n, how, tp, b)}):
                k = (op, n, how, tp, b, s)
                base = "/".join("%.0f" % x["time_us"] for x in t.get(k + ("baseline",), []))
                cells = ["%s %s" % (m, "/".join("%.2f" % x["speedup_vs_baseline"] for x in t[k + (m,)]))
                         for m in ("oneshot", "twoshot", "fewest_bytes", "auto") if k + (m,) in t]
                print(f"  tp {tp} {b} {s >> 10} KiB: baseline {base} us; " + "; ".join(cells))
