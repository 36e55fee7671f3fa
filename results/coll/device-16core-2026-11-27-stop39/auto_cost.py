#!/usr/bin/env python3
"""Stop 39: what AUTO costs per call where it runs the baseline itself. For every AUTO row whose
selected mode is the baseline, below 4 KiB: AUTO's time minus the baseline's in the same round
(vsym-bench fused times every mode in each of 5 rounds, in turns), ns, and AUTO / baseline; the
medians per build and rank count. Usage: auto_cost.py DIR (fused_npR_BUILD_rN.jsonl files)."""
import glob, json, os, re, statistics, sys
from collections import defaultdict

diff, ratio, base_t = defaultdict(list), defaultdict(list), defaultdict(list)
for f in glob.glob(os.path.join(sys.argv[1], "fused_np*_r*.jsonl")):
    m = re.match(r"fused_np(\d+)_(.+)_r\d+\.jsonl$", os.path.basename(f))
    ranks, build = int(m.group(1)), m.group(2)
    recs = [json.loads(line) for line in open(f)]
    key = lambda r: (r["op"], r["buffers"], r["size"], json.dumps(r["topology"]))
    base = {key(r): r for r in recs if r["mode"] == "baseline"}
    for r in recs:
        if r["mode"] != "auto" or r.get("selected") != "baseline" or r["size"] >= 4096:
            continue
        b = base[key(r)]
        for a, t in zip(r["time_us_rounds"], b["time_us_rounds"]):
            diff[(build, ranks)].append((a - t) * 1000)
            ratio[(build, ranks)].append(a / t)
        base_t[(build, ranks)].append(b["time_us"])
print(f"{'build':8} {'ranks':>5} {'rounds':>6} {'baseline us':>11} {'AUTO - baseline ns':>18} "
      f"{'AUTO / baseline':>15}")
for k in sorted(diff):
    print(f"{k[0]:8} {k[1]:>5} {len(diff[k]):>6} {statistics.median(base_t[k]):>11.3f} "
          f"{statistics.median(diff[k]):>18.1f} {statistics.median(ratio[k]):>15.3f}")
