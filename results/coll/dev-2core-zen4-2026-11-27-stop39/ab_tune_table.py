#!/usr/bin/env python3
"""Stop 39: AUTO / baseline (vsym-bench fused's paired speed-up, speedup_vs_baseline) of every
AUTO row of ab_tune.sh's launches, by build: how many rows ran a fused mode and how many of those
came out under 0.95 and 0.90 of the baseline's speed; the same for rows where AUTO ran the
baseline itself (the timing's own noise); then the rows of all-reduce + all-gather and
reduce-scatter + all-reduce launch by launch, and their medians over launches side by side per build,
with each build's range and mean of those medians up to 1 KiB and beyond. Usage: ab_tune_table.py DIR: this host's files
old_N.json and new_N.json (ab_tune.sh), or the device's fused_npR_BUILD_rN.jsonl
(../device-16core-2026-11-27-stop39/run_s39*.sh), by build."""
import glob, json, os, re, statistics, sys
from collections import defaultdict

res = defaultdict(list)
files = glob.glob(os.path.join(sys.argv[1], "*_*.json")) + \
    glob.glob(os.path.join(sys.argv[1], "fused_np*.jsonl"))
for f in sorted(files):
    base = os.path.basename(f)
    m = re.match(r"fused_np\d+_(.+)_r\d+\.jsonl$", base)
    ver = m.group(1) if m else base.split("_")[0]
    for line in open(f):
        r = json.loads(line)
        if r.get("suite") != "fused" or r["mode"] != "auto":
            continue
        t = r["topology"]
        ranks = r["ranks"] if "ranks" in r else r["config"]["ranks"]
        key = (ver, ranks, r["op"], f"{t['local_tp']}x{t['local_dp']}", r["buffers"], r["size"])
        res[key].append((r["speedup_vs_baseline"], r.get("selected")))
for ver in sorted({k[0] for k in res}, key=lambda v: (v != "old", v)):
    rows = [(k, v) for k, v in res.items() if k[0] == ver]
    below = lambda x, th: sum(1 for s in x if s < th)
    for ranks in sorted({k[1] for k, _ in rows}):
        fused = [s for k, v in rows if k[1] == ranks for s, sel in v if sel != "baseline"]
        base = [s for k, v in rows if k[1] == ranks for s, sel in v if sel == "baseline"]
        print(f"{ver}, {ranks} ranks: AUTO ran a fused mode in {len(fused)} rows: under 0.95 "
              f"{below(fused, 0.95)}, under 0.90 {below(fused, 0.90)}; the baseline in "
              f"{len(base)}: under 0.95 {below(base, 0.95)}, under 0.90 {below(base, 0.90)}")
    for k, v in sorted(rows):
        if k[2] not in ("allreduce_allgather", "reducescatter_allreduce"):
            continue
        sp = [s for s, _ in v]
        sel = ",".join(sorted({s for _, s in v}))
        print(f"  {k[1]:>2} ranks {k[2]:24} {k[3]:5} {k[4]:9} {k[5]:>7}: median {statistics.median(sp):.2f} "
              f"min {min(sp):.2f} [{sel}] " + " ".join(f"{s:.2f}" for s in sp))

pairs = ("allreduce_allgather", "reducescatter_allreduce")
vers = sorted({k[0] for k in res}, key=lambda v: (v != "old", v))
print("\nmedians over launches, AUTO / baseline speed: " + " ".join(vers))
groups = defaultdict(list)
for k in sorted({k[1:] for k in res if k[2] in pairs}):
    meds = [statistics.median([s for s, _ in res[(v,) + k]]) if (v,) + k in res else float("nan")
            for v in vers]
    print(f"  {k[0]:>2} ranks {k[1]:24} {k[2]:5} {k[3]:9} {k[4]:>7}: " +
          " ".join(f"{m:.2f}" for m in meds))
    groups[(k[0], k[1], "up to 1 KiB" if k[4] <= 1024 else "beyond 1 KiB")].append(meds)
for g, rows in sorted(groups.items()):
    cells = []
    for v, col in zip(vers, zip(*rows)):
        cells.append(f"{v} {min(col):.2f}-{max(col):.2f} (mean {sum(col) / len(col):.2f})")
    print(f"{g[0]:>2} ranks {g[1]:24} {g[2]:12}: " + "; ".join(cells))
