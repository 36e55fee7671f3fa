#!/usr/bin/env python3
"""Tables of a turns.sh run (stop 57): python3 tables.py DIR A B -> for each state of the cores
(far: the bench's line round trip, core_rtt_ns, over 250 ns; near else), collective and ranks,
mode (plain; tc: --touch --consume), buffers (ord: malloc; sym: vsym_coll_buffer_alloc) and
out of place / in place: B's median time over A's per size, with A's and B's launch counts."""
import collections, glob, json, os, statistics, sys

d = collections.defaultdict(list)
run, base, other = sys.argv[1:4]
for f in glob.glob(os.path.join(run, "*.jsonl")):
    variant, mode, _, coll = os.path.basename(f).split(".")[:4]
    for line in open(f):
        r = json.loads(line)
        state = "far" if r.get("core_rtt_ns", 0) > 250 else "near"
        buf = "sym" if "symmetric" in r["mode"] else "ord"
        ip = "ip" if r["mode"].startswith("in-place") else "oop"
        d[(state, coll, mode, buf, ip, r["size"], variant)].append(r["time_us"])
sizes = sorted({k[5] for k in d})
print(f"# {other} / {base}: median time per size {[s // 1024 for s in sizes]} KiB "
      "(launches of each at the first size)")
for state in ("near", "far"):
    print(f"## cores {state}")
    for key in sorted({k[1:5] for k in d if k[0] == state}):
        cells = []
        for s in sizes:
            a, b = d[(state, *key, s, base)], d[(state, *key, s, other)]
            cells.append(f"{statistics.median(b) / statistics.median(a):5.2f}" if a and b
                         else "    -")
        n = [len(d[(state, *key, sizes[0], v)]) for v in (base, other)]
        print(f"{key[0]:>16} {key[1]:>5} {key[2]} {key[3]:>3} ({n[0]:>3}/{n[1]:>3}): "
              + " ".join(cells))
