#!/usr/bin/env python3
"""Stop 38, run 3: the fused suite's medians over rounds [us] per ranks, op, TP x DP, buffers and
input size: the baseline, the one-shot mode, AUTO (the rule without a table), and baseline / mode
(above 1: the mode faster). Usage: fused_rule_table.py DIR. launches() is fused_paired.py's too."""
import glob, json, statistics, sys
from collections import defaultdict


def launches(d):
    """Per launch (record file) of the fused pairs: {(ranks, op, TPxDP, buffers, size, mode): us},
    and the sum of #wrong over every record."""
    out, wrong = [], 0
    for f in glob.glob(d + "/fused_*.jsonl"):
        recs = {}
        for line in open(f):
            r = json.loads(line)
            wrong += max(r.get("wrong") or 0, 0)
            if r["op"] not in ("allreduce_allgather", "reducescatter_allreduce"):
                continue
            tp = r["topology"]["local_tp"] * r["topology"]["inter_tp"]
            dp = r["topology"]["local_dp"] * r["topology"]["inter_dp"]
            recs[(r["config"]["ranks"], r["op"], f"{tp}x{dp}", r["buffers"], r["size"],
                  r["mode"])] = r["time_us"]
        out.append(recs)
    return out, wrong


if __name__ == "__main__":
    t = defaultdict(list)
    runs, wrong = launches(sys.argv[1])
    for recs in runs:
        for k, us in recs.items():
            t[k].append(us)
    med = lambda k: statistics.median(t[k]) if t.get(k) else float("nan")
    print(f"medians [us]; #wrong {wrong}")
    print(f"{'ranks':>5} {'op':24} {'TPxDP':5} {'buffers':9} {'bytes':>6} | {'baseline':>8}"
          f" {'oneshot':>8} {'auto':>8} | {'b/one':>5} {'b/auto':>6}")
    for k in sorted({k[:5] for k in t}):
        b, o, a = med(k + ("baseline",)), med(k + ("oneshot",)), med(k + ("auto",))
        print(f"{k[0]:>5} {k[1]:24} {k[2]:5} {k[3]:9} {k[4]:>6} | {b:8.2f} {o:8.2f} {a:8.2f} |"
              f" {b / o:5.2f} {b / a:6.2f}")
