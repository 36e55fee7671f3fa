#!/usr/bin/env python3
"""Stop 39: the copy service on the 16-core Intel guest (run_s39_copy.sh), per pattern, rank
count and task size: the median over launches of the per-rank copy bandwidth, the single-peer put
(alone) and every rank putting at once, measured in the same launch, and the medians and ranges
of copy/put and copy/put_all; iterations against delta. Usage: copy_table.py DIR."""
import glob, json, os, statistics, sys
from collections import defaultdict

rows, wrong, bad_iter = defaultdict(list), 0, 0
for f in glob.glob(os.path.join(sys.argv[1], "copy_*.jsonl")):
    for line in open(f):
        r = json.loads(line)
        rows[(r["pattern"], r["config"]["ranks"], r["size"])].append(r)
        wrong += r.get("wrong") or 0
        bad_iter += r["schedule_iterations"] != r["delta"]
print(f"#wrong {wrong}; rows with iterations != delta: {bad_iter}")
print(f"{'pattern':8} {'ranks':>5} {'size':>9} {'n':>2} {'copy GB/s':>9} {'put GB/s':>8} "
      f"{'put_all':>8} {'copy/put':>16} {'copy/put_all':>16}")
med = statistics.median
for k in sorted(rows):
    rs = rows[k]
    cp = [r["copy"]["bw_per_rank_gbs"] for r in rs]
    pt = [r["put_single_peer_gbs"] for r in rs]
    pa = [r["put_all_gbs"] for r in rs]
    q1 = [c / p for c, p in zip(cp, pt)]
    q2 = [c / p for c, p in zip(cp, pa)]
    print(f"{k[0]:8} {k[1]:>5} {k[2]:>9} {len(rs):>2} {med(cp):>9.2f} {med(pt):>8.2f} "
          f"{med(pa):>8.2f} {med(q1):>5.2f} ({min(q1):.2f}-{max(q1):.2f}) "
          f"{med(q2):>5.2f} ({min(q2):.2f}-{max(q2):.2f})")
