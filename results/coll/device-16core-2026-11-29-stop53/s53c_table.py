#!/usr/bin/env python3
"""Stop 53's third device run (run_s53c.sh): symmetric buffers, --touch; per configuration and
round, the baseline's and the two-shot's times without and with the demotion.
   python3 s53c_table.py DIR   (DIR: the unpacked s53c folder)"""
import glob, json, os, sys
d = sys.argv[1]
t = {}
for f in glob.glob(os.path.join(d, "rsar.*.jsonl")):
    _, np_, tp, size, dm, rnd, _ = os.path.basename(f).split(".")
    for line in open(f):
        r = json.loads(line)
        if r["buffers"] == "symmetric":
            t[(np_, tp, size, rnd, dm, r["mode"])] = r["time_us"]
print("# config round | demotion off: baseline twoshot oneshot | on: baseline twoshot oneshot | "
      "twoshot on/off")
for k in sorted({k[:4] for k in t}):
    g = lambda dm, m: t.get(k + (dm, m), 0)
    print(f"{' '.join(k):22s} | {g('off','baseline'):8.2f} {g('off','twoshot'):8.2f} "
          f"{g('off','oneshot'):8.2f} | {g('on','baseline'):8.2f} {g('on','twoshot'):8.2f} "
          f"{g('on','oneshot'):8.2f} | {g('on','twoshot') / g('off','twoshot'):5.2f}")
