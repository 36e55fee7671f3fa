#!/usr/bin/env python3
"""Tables of run_s58.sh's records: s58_table.py DIR (the extracted s58 folder).
1) the all-reduce, vsym / Open MPI (time; under 1: vsym faster), by ranks, buffers and mode;
2) the fused pairs, the baseline's time over AUTO's (tuned) and over each mode's, per launch."""
import glob, json, os, sys
from collections import defaultdict

d = sys.argv[1]
def load(p):
    out = []
    for line in open(p):
        try:
            out.append(json.loads(line))
        except ValueError:
            pass  # a launch cut off by its timeout may leave half a line
    return out

print("# all-reduce, f32, vsym / Open MPI (time), ordinary | symmetric buffers, out of place / in place")
for np in (2, 4, 8, 16):
    v, m = os.path.join(d, f"ar.np{np}.vsym.jsonl"), os.path.join(d, f"ar.np{np}.mpi.jsonl")
    if not (os.path.exists(v) and os.path.exists(m)):
        continue
    mpi = {(r["size"], r["mode"]): r["lat_us"]["avg"] for r in load(m)}
    vs = {(r["size"], r["mode"].replace("-symmetric", ""),
           "symmetric" if r["mode"].endswith("-symmetric") else "ordinary"): (r["time_us"], r["path"])
          for r in load(v)}
    for size in sorted({k[0] for k in mpi}):
        row = []
        for buf in ("ordinary", "symmetric"):
            for mode in ("out-of-place", "in-place"):
                t = vs.get((size, mode, buf))
                row.append(f"{t[0] / mpi[(size, mode)]:5.2f}" if t else "    -")
        print(f"{np:3d} {size:9d}  mpi {mpi[(size, 'out-of-place')]:9.2f} us  "
              f"{row[0]} {row[1]} | {row[2]} {row[3]}  "
              f"vsym {vs[(size, 'out-of-place', 'ordinary')][0]:9.2f} us")

print()
print("# fused, f16: baseline time / AUTO's (tuned), per launch (r1 tc r2; tc: --touch --consume);"
      " best fused mode's ratio in r1")
rows = defaultdict(dict)
for p in sorted(glob.glob(os.path.join(d, "fused.*.jsonl"))):
    lab, np = os.path.basename(p).split(".")[1:3]
    for r in load(p):
        if r["op"] not in ("allreduce_allgather", "reducescatter_allreduce"):
            continue
        t = r["topology"]
        key = (int(np[2:]), r["op"], t["local_tp"] * t["inter_tp"], r["buffers"], r["size"])
        rows[key].setdefault(lab, {})[r["mode"]] = r["time_us"]
for key in sorted(rows):
    np, op, tp, buf, size = key
    cells, best = [], ""
    for lab in ("r1", "tc", "r2"):
        m = rows[key].get(lab)
        cells.append(f"{m['baseline'] / m['auto']:5.2f}" if m and "auto" in m and "baseline" in m
                     else "    -")
    m = rows[key].get("r1", {})
    fm = {k: v for k, v in m.items() if k not in ("baseline", "auto") and v > 0}
    if fm and "baseline" in m:
        k = min(fm, key=fm.get)
        best = f"{k} {m['baseline'] / fm[k]:.2f}"
    base = m.get("baseline", 0)
    print(f"{np:3d} {op:24s} tp{tp} {buf:9s} {size:7d}  base {base:8.2f} us  auto "
          f"{' '.join(cells)}  best {best}")
