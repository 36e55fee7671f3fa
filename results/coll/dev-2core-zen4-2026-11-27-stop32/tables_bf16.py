#!/usr/bin/env python3
"""Tables of run_bf16.sh's records (host and device alike): per collective, ranks and dtype,
old -> new in us as the median of the rounds, then new / old of the medians and of the best
rounds (the 2-core host runs 4 ranks in a slow mode in some launches of either build), for
ordinary and symmetric buffers out of place (in place in brackets: medians), and the dtype's new
median over f32's of the same bytes."""
import collections, glob, json, os, statistics, sys

d = sys.argv[1] if len(sys.argv) > 1 else "."
t = collections.defaultdict(list)
for f in glob.glob(os.path.join(d, "*.jsonl")):
    c, dt, np_, v, _ = os.path.basename(f)[: -len(".jsonl")].split("_")
    for line in open(f):
        r = json.loads(line)
        t[(c, dt, int(np_[2:]), r["mode"], r["size"], v)].append(r["time_us"])
med = lambda xs: statistics.median(xs) if xs else float("nan")
best = lambda xs: min(xs) if xs else float("nan")
dts = sorted({k[1] for k in t if k[1] != "f32"})
for c in ("allreduce", "reduce-scatter"):
    for n in sorted({k[2] for k in t if k[0] == c}):
        for dt in dts:
            rounds = len(t[next((k for k in t if k[:3] == (c, dt, n)), None)] or [])
            print(f"## {c} {dt}, {n} ranks, {rounds} rounds: old -> new us (new/old medians, "
                  f"best rounds [in place medians]; new / f32 new)")
            for kind in ("", "-symmetric"):
                cells = []
                for s in sorted({k[4] for k in t if k[0] == c and k[1] == dt and k[2] == n}):
                    o = t[(c, dt, n, "out-of-place" + kind, s, "old")]
                    nw = t[(c, dt, n, "out-of-place" + kind, s, "new")]
                    oi = t[(c, dt, n, "in-place" + kind, s, "old")]
                    ni = t[(c, dt, n, "in-place" + kind, s, "new")]
                    f = t[(c, "f32", n, "out-of-place" + kind, s, "new")]
                    cells.append(f"{s >> 10}K {med(o):.1f}->{med(nw):.1f} ({med(nw) / med(o):.2f}, "
                                 f"{best(nw) / best(o):.2f} [{med(ni) / med(oi):.2f}]; "
                                 f"{med(nw) / med(f):.2f})")
                print(f"  {'ordinary' if not kind else 'symmetric'}: " + "; ".join(cells))
