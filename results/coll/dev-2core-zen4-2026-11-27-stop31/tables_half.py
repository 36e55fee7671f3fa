#!/usr/bin/env python3
"""Tables of run_half.sh's records: per collective, ranks and dtype, medians over the rounds, us,
old -> new (new / old) for ordinary and symmetric buffers out of place (in place in brackets),
and each half dtype's new time over the f32 one of the same bytes."""
import collections, glob, json, os, statistics, sys

d = sys.argv[1] if len(sys.argv) > 1 else "."
t = collections.defaultdict(list)
for f in glob.glob(os.path.join(d, "*.jsonl")):
    c, dt, np_, v, _ = os.path.basename(f)[: -len(".jsonl")].split("_")
    for line in open(f):
        r = json.loads(line)
        t[(c, dt, int(np_[2:]), r["mode"], r["size"], v)].append(r["time_us"])
med = lambda xs: statistics.median(xs) if xs else float("nan")
for c in ("allreduce", "reduce-scatter"):
    for n in sorted({k[2] for k in t if k[0] == c}):
        for dt in ("bf16", "f16"):
            print(f"## {c} {dt}, {n} ranks: new / old out of place [in place]; new / f32 new")
            for kind in ("", "-symmetric"):
                cells = []
                for s in sorted({k[4] for k in t if k[0] == c and k[1] == dt and k[2] == n}):
                    o = med(t[(c, dt, n, "out-of-place" + kind, s, "old")])
                    nw = med(t[(c, dt, n, "out-of-place" + kind, s, "new")])
                    oi = med(t[(c, dt, n, "in-place" + kind, s, "old")])
                    ni = med(t[(c, dt, n, "in-place" + kind, s, "new")])
                    f = med(t[(c, "f32", n, "out-of-place" + kind, s, "new")])
                    cells.append(f"{s >> 10}K {o:.1f}->{nw:.1f} ({nw / o:.2f} [{ni / oi:.2f}]; {nw / f:.2f})")
                print(f"  {'ordinary' if not kind else 'symmetric'}: " + "; ".join(cells))
