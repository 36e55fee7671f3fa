#!/usr/bin/env python3
"""Stop 53's device run: per rank count, op, topology, buffers and size, the baseline's time and
AUTO's with src unchanged (plain) and rewritten before each call (touch), the speed-up of AUTO
and of the best fused mode over the baseline, and AUTO's mode.
   python3 s53_table.py DIR   (DIR: the unpacked s53_a folder)"""
import glob, json, os, sys
d = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(d, "fused.*.jsonl"))):
    _, op, np_, t, _ = os.path.basename(f).split(".")
    for line in open(f):
        r = json.loads(line)
        tp = r["topology"]
        key = (int(np_[2:]), op, f'{tp["local_tp"]}x{tp["local_dp"]}', r["buffers"], r["size"])
        rows.setdefault(key, {}).setdefault(t, {})[r["mode"]] = r
print("# np op tpxdp buffers size | plain: base us, auto us, auto/base speed-up, best, AUTO's mode"
      " | touch: the same")
for k in sorted(rows):
    out = []
    for t in ("plain", "touch"):
        m = rows[k].get(t)
        if not m or "baseline" not in m:
            out.append("-")
            continue
        best = max((v["speedup_vs_baseline"] or 0, n) for n, v in m.items()
                   if n not in ("baseline", "auto"))
        a = m["auto"]
        out.append(f'{m["baseline"]["time_us"]:8.2f} {a["time_us"]:8.2f} '
                   f'{a["speedup_vs_baseline"]:5.2f} {best[0]:5.2f} {best[1][:7]:7s} '
                   f'{a.get("selected", "?")[:7]:7s}')
    print(f"{k[0]:2d} {k[1][:14]:14s} {k[2]:5s} {k[3][:3]} {k[4]:8d} | " + " | ".join(out))
