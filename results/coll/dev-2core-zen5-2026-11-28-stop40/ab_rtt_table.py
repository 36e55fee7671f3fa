#!/usr/bin/env python3
"""Tables of ab_rtt.sh's records: per collective, size and buffer kind (ordinary buffers, out of
place and in place; symmetric as the control, which publishes nothing through the scratch), the
new build's time over the old build's, paired within each round, split by the state of the
cores at that row in both launches (the bench's core_rtt_ns: near up to 250 ns, far over it;
rows where the two launches' states differ are counted apart). Medians over rounds.
    ab_rtt_table.py DIR"""
import glob, json, os, statistics, sys
from collections import defaultdict

d = sys.argv[1]
rec = {}  # (build, suite, round) -> {(mode, size): (time, rtt)}
nranks = set()
for f in glob.glob(os.path.join(d, "*.json")):
    build, rest = os.path.basename(f)[:-5].split("_", 1)
    suite, rnd = rest.rsplit("_", 1)
    rows = {}
    for line in open(f):
        r = json.loads(line)
        nranks.add(r.get("config", {}).get("ranks"))
        rows[(r["mode"], r["size"])] = (r["time_us"], r.get("core_rtt_ns") or 0)
    rec[(build, suite, int(rnd))] = rows

ratios = defaultdict(list)  # (suite, mode, size, state) -> [new/old]
times = defaultdict(list)   # (suite, mode, size, state, build) -> [us]
for (build, suite, rnd), rows in rec.items():
    if build != "new" or ("old", suite, rnd) not in rec:
        continue
    old = rec[("old", suite, rnd)]
    for key, (t, rtt) in rows.items():
        if key not in old:
            continue
        to, rtto = old[key]
        far_n, far_o = rtt > 250, rtto > 250
        state = "far" if far_n and far_o else "near" if not far_n and not far_o else "mixed"
        ratios[(suite, key[0], key[1], state)].append(t / to)
        times[(suite, key[0], key[1], state, "new")].append(t)
        times[(suite, key[0], key[1], state, "old")].append(to)

for suite in sorted({k[0] for k in ratios}):
    print(f"\n## {suite}, {'/'.join(str(n) for n in sorted(nranks))} ranks: new / old time per call, medians over rounds (rounds), "
          "old and new median us")
    print(f"{'mode':>24} {'bytes':>9} | {'near':>26} | {'far':>26} | {'mixed':>14}")
    for mode in ("out-of-place", "in-place", "out-of-place-symmetric", "in-place-symmetric"):
        sizes = sorted({k[2] for k in ratios if k[0] == suite and k[1] == mode})
        for s in sizes:
            cells = []
            for state in ("near", "far", "mixed"):
                v = ratios.get((suite, mode, s, state))
                if not v:
                    cells.append("-")
                    continue
                o = statistics.median(times[(suite, mode, s, state, "old")])
                n = statistics.median(times[(suite, mode, s, state, "new")])
                cells.append(f"{statistics.median(v):.2f} ({len(v)}) {o:.1f}->{n:.1f}"
                             if state != "mixed" else f"{statistics.median(v):.2f} ({len(v)})")
            print(f"{mode:>24} {s:>9} | {cells[0]:>26} | {cells[1]:>26} | {cells[2]:>14}")
