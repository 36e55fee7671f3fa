#!/usr/bin/env python3
"""bound.sh's table: per size, min-max over rounds of the bound fraction (S at memcpy's speed
alone, the fastest of memcpy-bench's copies, over the all-reduce's time; 2 ranks move
2(n-1)/n x S = S each) for each buffer kind and mode, and the kernel copy's speed over memcpy's
in the same process (cma_probe)."""
import glob, json, re, sys
from collections import defaultdict

d = sys.argv[1]
best = {}                  # (kind, round, size) -> GB/s
coll = defaultdict(list)   # (mode, size) -> [(round, us, path)]
for f in glob.glob(f"{d}/recs/*.jsonl"):
    kind, rnd, size = re.match(r".*/(\w+)-(\d+)-(\d+)\.jsonl", f).groups()
    for line in open(f):
        r = json.loads(line)
        if kind == "ar":
            if r.get("wrong", 0):
                sys.exit(f"{f}: wrong values")
            coll[(r["mode"], r["size"])].append((int(rnd), r["time_us"], r.get("path", "")))
        else:
            gbs = r["bw_gbs"]["avg"]
            key = (kind, int(rnd), r["size"])
            best[key] = max(best.get(key, 0), gbs)
cma = defaultdict(list)
for line in open(f"{d}/recs/cma.txt"):
    m = re.search(r"^round (\d+) (\d+) chunk \d+: cma ([\d.]+) us .*memcpy ([\d.]+) us", line)
    if m:
        cma[int(m.group(2))].append(float(m.group(4)) / float(m.group(3)))
rng = lambda v: f"{min(v):.2f}-{max(v):.2f}" if v else "-"
modes = ("out-of-place", "in-place", "out-of-place-symmetric", "in-place-symmetric")
print("# bound fraction: S / memcpy alone (GB/s, fastest copy) / all-reduce time, min-max of rounds")
print(f"{'bytes':>9} {'memcpy GB/s':>12} " + " ".join(f"{m:>34}" for m in modes) +
      f" {'cma/memcpy':>11}")
for s in sorted({k[1] for k in coll}):
    mc = [best[("alone", r, s)] for (r, _, _) in coll[(modes[0], s)] if ("alone", r, s) in best]
    cols = []
    for m in modes:
        fr = [s / (best[("alone", r, s)] * 1e3) / us for (r, us, _) in coll[(m, s)]
              if ("alone", r, s) in best]
        paths = sorted({p for (_, _, p) in coll[(m, s)]})
        cols.append(f"{rng(fr)} {'/'.join(paths)}")
    print(f"{s:>9} {rng(mc):>12} " + " ".join(f"{c:>34}" for c in cols) + f" {rng(cma[s]):>11}")
