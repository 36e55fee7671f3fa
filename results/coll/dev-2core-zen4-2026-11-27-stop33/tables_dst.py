#!/usr/bin/env python3
"""Tables of run_dst.sh: per collective, rank count, buffers and size, the median time over the
rounds old -> new (new / old of the medians, of the best rounds), Open MPI's median time and
new / Open MPI, and for the all-reduce the fraction of the bound 2(n-1)/n x S / memcpy (the
fastest routine of memcpy-bench alone, best of the rounds). Then the c2c_probe latencies of
the launches (near: below 100 ns)."""
import collections, glob, json, os, re, statistics, sys

d = sys.argv[1] if len(sys.argv) > 1 else "."
t = collections.defaultdict(list)
lat = collections.defaultdict(list)
for f in glob.glob(os.path.join(d, "*_np*_*_r*.jsonl")):
    m = re.match(r"(.+)_np(\d+)_(old|new)_r(\d+)\.jsonl", os.path.basename(f))
    if not m:
        continue
    c, n, v, r = m.group(1), int(m.group(2)), m.group(3), m.group(4)
    for line in open(f):
        x = json.loads(line)
        t[(c, n, x["mode"], x["size"], v)].append(x["time_us"])
    c2c = f[: -len(".jsonl")] + ".c2c"
    if os.path.exists(c2c):
        lat[(n, v)].append(float(open(c2c).read().split()[1]))
mpi = collections.defaultdict(list)
for f in glob.glob(os.path.join(d, "mpi_np*_r*.jsonl")):
    n = int(re.search(r"_np(\d+)_", f).group(1))
    for line in open(f):
        x = json.loads(line)
        mpi[(x["suite"].replace("_", "-"), n, x["mode"], x["size"])].append(x["lat_us"]["median"])
mc = {}
for f in glob.glob(os.path.join(d, "memcpy_r*.jsonl")):
    for line in open(f):
        x = json.loads(line)
        mc[x["size"]] = min(mc.get(x["size"], 1e30), x["lat_us"]["median"])
med = statistics.median
for c in sorted({k[0] for k in t}):
    for n in sorted({k[1] for k in t if k[0] == c}):
        print(f"## {c}, {n} ranks: old -> new us (new/old medians, best rounds) [new / Open MPI]"
              + (" {bound fraction old -> new}" if c == "allreduce" else ""))
        for mode in ("out-of-place", "in-place", "out-of-place-symmetric", "in-place-symmetric"):
            cells = []
            for s in sorted({k[3] for k in t if k[:3] == (c, n, mode)}):
                o, nw = t.get((c, n, mode, s, "old")), t.get((c, n, mode, s, "new"))
                if not o or not nw:
                    continue
                cell = (f"{s >> 20}M " if s >= 1 << 20 else f"{s >> 10}K ")
                cell += (f"{med(o):.0f}->{med(nw):.0f} ({med(nw) / med(o):.2f}, "
                        f"{min(nw) / min(o):.2f})")
                mp = mpi.get((c, n, mode.replace("-symmetric", ""), s))
                if mp:
                    cell += f" [{med(nw) / med(mp):.2f}]"
                if c == "allreduce" and s in mc:
                    b = 2 * (n - 1) / n * mc[s]
                    cell += f" {{{b / med(o):.2f}->{b / med(nw):.2f}}}"
                cells.append(cell)
            if cells:
                print(f"  {mode}: " + "; ".join(cells))
print("## c2c_probe one-way latency before each launch, ns (near < 100)")
for (n, v), xs in sorted(lat.items()):
    near = sum(1 for x in xs if x < 100)
    print(f"  {n} ranks {v}: {near} near of {len(xs)}; " + " ".join(f"{x:.0f}" for x in xs))
