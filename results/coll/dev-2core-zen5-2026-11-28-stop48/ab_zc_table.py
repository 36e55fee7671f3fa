#!/usr/bin/env python3
"""ab_zc_near.sh's records: per state of the cores (near: both probes of the launch under 250 ns;
else far or mixed) and size, the symmetric all-reduce's time out of place with
VSYM_PUBLISH_STREAM auto and on (medians, us), on / auto, and the range of on / auto over the
launches. Usage: ab_zc_table.py FILE.jsonl"""
import collections
import json
import statistics as st
import sys

d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["mode"] != "out-of-place-symmetric":
        continue
    near = max(r["rtt_before"], r["rtt_after"]) < 250
    d[(near, r["size"], r["ps"])].append(r["time_us"])
print("state KiB launches auto_us on_us on/auto (range)")
for near, size, ps in sorted(d):
    if ps != "auto" or (near, size, "on") not in d:
        continue
    a, o = d[(near, size, "auto")], d[(near, size, "on")]
    print(f"{'near' if near else 'far/mixed':9s} {size >> 10:5d} {len(a)}/{len(o)} "
          f"{st.median(a):7.1f} {st.median(o):7.1f} {st.median(o) / st.median(a):.2f} "
          f"({min(o) / max(a):.2f}-{max(o) / min(a):.2f})")
