#!/usr/bin/env python3
"""The fused suite's runs (stop 57, runs 6-8). python3 fused_table.py DIR: per input size, the
median time of each mode over the launches (run 6, one build). python3 fused_table.py DIR A B
(turns.sh runs 7 and 8, two builds): per state of the cores (far: the bench's core_rtt_ns over 250 ns, at AUTO's record), mode
(plain; tc: --touch --consume), dtype, buffers and input size, each build's AUTO: the median over
its launches of the baseline's time over AUTO's in the same launch, the launches, and the modes
AUTO ran; 2 x 2 topologies only."""
import collections, glob, json, os, statistics, sys

run, builds = sys.argv[1], sys.argv[2:4]
if not builds:
    m = collections.defaultdict(list)
    for f in glob.glob(os.path.join(run, "*.jsonl")):
        mode = os.path.basename(f).split(".")[1]
        for line in open(f):
            r = json.loads(line)
            if r.get("topology", {}).get("local_tp") == 2 and r["topology"]["local_dp"] == 2:
                m[(r["op"], r["dtype"], mode, r["buffers"], r["size"], r["mode"])].append(
                    r["time_us"])
    modes = ("baseline", "oneshot", "twoshot", "auto")
    for key in sorted({k[:5] for k in m}):
        med = {x: statistics.median(m[key + (x,)]) for x in modes if m[key + (x,)]}
        print(f"{key[0]:>20} {key[1]} {key[2]:>5} {key[3]:>9} {key[4]:>7}: "
              + "  ".join(f"{x} {t:7.2f}" for x, t in med.items())
              + f"  (launches {len(m[key + ('baseline',)])})")
    sys.exit(0)
d = collections.defaultdict(lambda: collections.defaultdict(dict))
for f in glob.glob(os.path.join(run, "*.jsonl")):
    variant, mode, rnd = os.path.basename(f).split(".")[:3]
    for line in open(f):
        r = json.loads(line)
        t = r.get("topology", {})
        if t.get("local_tp") != 2 or t.get("local_dp") != 2:
            continue
        key = (r["op"], r["dtype"], mode, r["buffers"], r["size"])
        state = "far" if r.get("core_rtt_ns", 0) > 250 else "near"
        d[(key, variant)][rnd][r["mode"]] = (r["time_us"], r.get("selected"), state)
for state in ("near", "far"):
    print(f"## cores {state} (at AUTO's record)")
    for key in sorted({k[0] for k in d}):
        cells = []
        for v in builds:
            runs = [x for x in d[(key, v)].values()
                    if "auto" in x and "baseline" in x and x["auto"][2] == state]
            ratios = [x["baseline"][0] / x["auto"][0] for x in runs]
            ran = sorted({x["auto"][1] for x in runs})
            cells.append(f"{v} {statistics.median(ratios):.2f} ({len(ratios)}, {'/'.join(ran)})"
                         if ratios else f"{v} -")
        if any(not c.endswith(" -") for c in cells):
            print(f"{key[0]:>20} {key[1]} {key[2]:>5} {key[3]:>9} {key[4]:>7}: "
                  + "   ".join(cells))
