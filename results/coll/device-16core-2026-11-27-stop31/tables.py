#!/usr/bin/env python3
"""Tables of run.sh's records (alias.tgz unpacked into DIR): medians over the rounds, us,
old -> new (new/old); for the all-reduce the bound fraction 2(n-1)/n x S / memcpy speed (memcpy
alone at 2 ranks, loaded by a copy on every other core at 8-16), old -> new; then the fused
reduce-scatter + all-reduce at 16 ranks, best fused mode / baseline per split, old -> new."""
import collections, glob, json, os, statistics, sys

d = sys.argv[1] if len(sys.argv) > 1 else "alias"
t = collections.defaultdict(list)
mc = collections.defaultdict(list)
fz = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(d, "*.jsonl"))):
    base = os.path.basename(f)[: -len(".jsonl")]
    for line in open(f):
        r = json.loads(line)
        if base.startswith("memcpy"):
            if r["op"] == "memcpy":
                mc[("loaded" in base, r["size"])].append(r["lat_us"]["median"])
            continue
        v, c, np_, rnd = base.split("_")
        if c == "fused":
            tp = r["topology"]
            split = f"tp{tp['local_tp']}xdp{tp['local_dp']}"
            fz[(r["buffers"], split, r["size"], v)].append(r)
            continue
        t[(c, int(np_[2:]), r["mode"], r["size"], v)].append(r["time_us"])
med = lambda xs: statistics.median(xs) if xs else float("nan")
for c in ("allreduce", "reduce-scatter"):
    for n in (2, 8, 16):
        print(f"## {c}, {n} ranks: median us old -> new (new/old)"
              + ("  [bound fraction old -> new]" if c == "allreduce" else ""))
        for mode in ("out-of-place", "in-place", "out-of-place-symmetric", "in-place-symmetric"):
            sizes = sorted({k[3] for k in t if k[0] == c and k[1] == n and k[2] == mode})
            cells = []
            for s in sizes:
                o, nw = med(t[(c, n, mode, s, "old")]), med(t[(c, n, mode, s, "new")])
                cell = f"{s >> 10}K {o:.1f}->{nw:.1f} ({nw / o:.2f})"
                if c == "allreduce":
                    b = med(mc[(n > 2, s)]) * 2 * (n - 1) / n
                    cell += f" [{b / o:.2f}->{b / nw:.2f}]"
                cells.append(cell)
            print(f"  {mode}: " + "; ".join(cells))
if fz:
    print("## fused reduce-scatter + all-reduce, 16 ranks: the best fused mode's speed-up over the")
    print("## baseline (median of its rounds), and AUTO's; medians over the launches, old -> new")
    for buf in ("ordinary", "symmetric"):
        for split in sorted({k[1] for k in fz if k[0] == buf}):
            cells = []
            for s in sorted({k[2] for k in fz if k[0] == buf and k[1] == split}):
                row = []
                for v in ("old", "new"):
                    recs = fz[(buf, split, s, v)]
                    best, auto = [], []
                    # one launch = one record per mode; group by date (launch) and mode
                    per = collections.defaultdict(dict)
                    for r in recs:
                        per[r["date"]][r["mode"]] = r["speedup_vs_baseline"]
                    for modes in per.values():
                        fused = [x for m, x in modes.items() if m not in ("baseline", "auto")]
                        if fused: best.append(max(fused))
                        if "auto" in modes: auto.append(modes["auto"])
                    row.append((med(best), med(auto)))
                cells.append(f"{s >> 10}K best {row[0][0]:.2f}->{row[1][0]:.2f} auto {row[0][1]:.2f}->{row[1][1]:.2f}")
            print(f"  {buf} {split}: " + "; ".join(cells))
