#!/usr/bin/env python3
"""Stop 35: run_publish.sh's records as tables. Per collective, rank count, buffer mode and
size: each round's time with VSYM_PUBLISH_STREAM off and auto (us), the ratio auto / off, and
the line round trip between ranks 0 and 1 recorded with each (F: under 150 ns, the CPUs near;
S: over 250, far; - not measured; with ALL=1 in the environment every round is one class, *,
for the 16-core Intel guest, whose round trips spread over 118-351 ns without two states).
With A and B in the environment, the two values run_publish.sh's VALUES named (default off and
auto). Usage: [ALL=1] [A=.. B=..] tables_publish.py OUTDIR"""
import glob, json, os, re, sys
from collections import defaultdict

out = sys.argv[1]
A, B = os.environ.get("A", "off"), os.environ.get("B", "auto")
t = defaultdict(dict)  # (coll, np, mode, size) -> {(v, round): (us, rtt)}
for f in glob.glob(os.path.join(out, "*_np*_*_r*.jsonl")):
    m = re.match(r"(.+)_np(\d+)_(%s|%s)_r(\d+)\.jsonl" % (re.escape(A), re.escape(B)),
                 os.path.basename(f))
    if not m:
        continue
    coll, np_, v, rnd = m.group(1), int(m.group(2)), m.group(3), int(m.group(4))
    for line in open(f):
        r = json.loads(line)
        if "time_us" not in r or "symmetric" in r["mode"]:
            continue
        t[(coll, np_, r["mode"], r["size"])][(v, rnd)] = (r["time_us"], r.get("core_rtt_ns"))


def cls(rtt):
    if os.environ.get("ALL"):
        return "*"
    return "-" if rtt is None else "F" if rtt < 150 else "S" if rtt > 250 else "?"


for key in sorted(t):
    d = t[key]
    rounds = sorted({k[1] for k in d})
    cells = []
    for rnd in rounds:
        if (A, rnd) in d and (B, rnd) in d:
            (a, ra), (b, rb) = d[(A, rnd)], d[(B, rnd)]
            cells.append(f"{a:8.1f}{cls(ra)} {b:8.1f}{cls(rb)} {b / a:5.2f}")
    coll, np_, mode, size = key
    print(f"{coll:15s} np{np_} {mode:13s} {size:>9d}: " + " | ".join(cells))

# Summary: the median ratio auto / off over the rounds whose two launches were both near (F),
# both far (S), or unmeasured (-), with the count of such rounds and the median times.
print()
print(f"summary: {B}/{A} median [n rounds] (median {A} -> {B} us), by the CPUs' state in both launches")
for key in sorted(t):
    d = t[key]
    parts = []
    for want in "FS-*":
        pairs = []
        for rnd in sorted({k[1] for k in d}):
            if (A, rnd) in d and (B, rnd) in d:
                (a, ra), (b, rb) = d[(A, rnd)], d[(B, rnd)]
                if cls(ra) == want and cls(rb) == want:
                    pairs.append((a, b))
        if pairs:
            med = lambda v: sorted(v)[len(v) // 2] if len(v) % 2 else sum(sorted(v)[len(v) // 2 - 1:len(v) // 2 + 1]) / 2
            parts.append(f"{want} {med([b / a for a, b in pairs]):.2f} [{len(pairs)}] "
                         f"({med([a for a, _ in pairs]):.1f} -> {med([b for _, b in pairs]):.1f})")
    coll, np_, mode, size = key
    print(f"{coll:15s} np{np_} {mode:13s} {size:>9d}: " + "; ".join(parts))
