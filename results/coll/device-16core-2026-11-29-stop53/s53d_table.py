#!/usr/bin/env python3
"""Stop 53's fourth device run (run_s53d.sh): reduce-scatter + all-reduce of symmetric buffers,
per rank count, split, size, input unchanged (plain) or rewritten (touch): the baseline's time
and AUTO's under the old rule (6b125ac) and the new (d6313c4), AUTO's speed-up over the baseline
of its own launch (the rounds' median), AUTO's mode; then the tuned launch's AUTO rows.
   python3 s53d_table.py DIR   (DIR: the unpacked s53d folder)"""
import glob, json, os, sys
d = sys.argv[1]
t = {}
for f in glob.glob(os.path.join(d, "rsar.*.jsonl")):
    _, np_, how, build, _ = os.path.basename(f).split(".")
    for line in open(f):
        r = json.loads(line)
        if r["buffers"] != "symmetric":
            continue
        tp = r["topology"]
        k = (int(np_[2:]), f'{tp["local_tp"]}x{tp["local_dp"]}', r["size"], how)
        t.setdefault(k, {})[(build, r["mode"])] = r
print("# np split size input | old: base auto speed-up mode | new: base auto speed-up mode")
for k in sorted(t):
    m = t[k]
    out = []
    for b in ("old", "new2"):
        if (b, "auto") not in m:
            out.append("-")
            continue
        a = m[(b, "auto")]
        out.append(f'{m[(b, "baseline")]["time_us"]:8.2f} {a["time_us"]:8.2f} '
                   f'{a["speedup_vs_baseline"]:5.2f} {a.get("selected", "?")[:8]:8s}')
    print(f"{k[0]:2d} {k[1]:4s} {k[2]:8d} {k[3]:5s} | " + " | ".join(out))
print("# tuned (8 ranks, table made with tune_touch), --touch: split size base auto speed-up mode")
for line in open(os.path.join(d, "tuned.np8.touch.jsonl")):
    r = json.loads(line)
    if r["mode"] == "auto":
        tp = r["topology"]
        print(f'{tp["local_tp"]}x{tp["local_dp"]} {r["buffers"][:3]} {r["size"]:8d} '
              f'{r["time_us"]:8.2f} {r["speedup_vs_baseline"]:5.2f} {r["selected"]}')
