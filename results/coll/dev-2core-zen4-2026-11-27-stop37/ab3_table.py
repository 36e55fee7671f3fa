#!/usr/bin/env python3
"""Stop 37: medians of ab3.sh's records (SUITE_SETTING_rN.jsonl), ordinary buffers, each row placed
near (core_rtt_ns under 150 ns) or far (over 250) by its own round trip. Usage: ab3_table.py DIR"""
import glob, json, os, statistics, sys
from collections import defaultdict

t = defaultdict(list)
wrong = 0
for f in glob.glob(sys.argv[1] + "/*.jsonl"):
    suite, v, _ = os.path.basename(f)[:-6].split("_")
    for line in open(f):
        r = json.loads(line)
        wrong += max(r.get("wrong") or 0, 0)
        if "sym" in r["mode"]:
            continue
        x = r.get("core_rtt_ns")
        st = None if x is None else "near" if x < 150 else "far" if x > 250 else None
        if st:
            t[(suite, r["mode"], r["size"], st, v)].append(r["time_us"])
print(f"VSYM_PUBLISH_STREAM off / auto / on, medians [us] (rows); #wrong {wrong}")
print(f"{'suite':14} {'mode':13} {'size':>8} | {'near off / auto / on (rows)':>36} |"
      f" {'far off / auto / on (rows)':>36}")
for k in sorted({k[:3] for k in t}):
    row = f"{k[0]:14} {k[1]:13} {k[2]:>8} |"
    for st in ("near", "far"):
        m = [t.get(k + (st, v)) for v in ("off", "auto", "on")]
        row += " " + " / ".join(f"{statistics.median(x):7.1f}" if x else "    nan" for x in m)
        row += " (" + ",".join(str(len(x or [])) for x in m) + ") |"
    print(row)
