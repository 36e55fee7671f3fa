#!/usr/bin/env python3
"""Tables of run.sh's records: medians over the rounds, us, old -> new, and the bound fraction
(memcpy of S / the all-reduce's time; 2(n-1)/n x S / memcpy speed at n ranks)."""
import collections, glob, json, os, statistics, sys

d = sys.argv[1] if len(sys.argv) > 1 else "."
t = collections.defaultdict(list)
mc = collections.defaultdict(list)
for f in glob.glob(os.path.join(d, "*.jsonl")):
    base = os.path.basename(f)
    for line in open(f):
        r = json.loads(line)
        if base.startswith("memcpy"):
            if r["op"] == "memcpy":
                mc[r["size"]].append(r["lat_us"]["median"])
            continue
        coll, np_, v, _ = base.split("_")
        t[(coll, int(np_[2:]), r["mode"], r["size"], v)].append(r["time_us"])
med = lambda xs: statistics.median(xs) if xs else float("nan")
for coll in ("ar", "rs"):
    for n in (2, 4):
        print(f"## {coll} {n} ranks: median us old -> new (new/old)"
              + ("; bound fraction old -> new" if coll == "ar" else ""))
        for op in ("out-of-place", "in-place", "out-of-place-symmetric", "in-place-symmetric"):
            sizes = sorted({k[3] for k in t if k[0] == coll and k[1] == n and k[2] == op})
            cells = []
            for s in sizes:
                o, nw = med(t[(coll, n, op, s, "old")]), med(t[(coll, n, op, s, "new")])
                cell = f"{s >> 10}K {o:.1f}->{nw:.1f} ({nw / o:.2f})"
                if coll == "ar":
                    b = med(mc[s]) * 2 * (n - 1) / n
                    cell += f" [{b / o:.2f}->{b / nw:.2f}]"
                cells.append(cell)
            print(f"{op}: " + "; ".join(cells))
