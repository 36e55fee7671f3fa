#!/usr/bin/env python3
"""Tables of run_bc.sh's records: medians over the rounds, us, of the ordinary-buffer broadcast
before (old) and after (new) the pieces, and Open MPI's (average per call); new / old, and
Open MPI / new (out of place; in place in brackets)."""
import collections, glob, json, os, statistics, sys

d = sys.argv[1] if len(sys.argv) > 1 else "."
t = collections.defaultdict(list)
for f in glob.glob(os.path.join(d, "bc_*.jsonl")):
    _, np_, who, _ = os.path.basename(f)[: -len(".jsonl")].split("_")
    for line in open(f):
        r = json.loads(line)
        if who == "mpi":
            t[(who, int(np_[2:]), "out-of-place", r["size"])].append(r["lat_us"]["avg"])
        elif r["mode"] in ("out-of-place", "in-place"):
            t[(who, int(np_[2:]), r["mode"], r["size"])].append(r["time_us"])
med = lambda xs: statistics.median(xs) if xs else float("nan")
for n in sorted({k[1] for k in t}):
    print(f"## {n} ranks: size: new / old [in place], Open MPI / new [in place]; us old, new, MPI")
    for s in sorted({k[3] for k in t if k[1] == n}):
        o, nw = med(t[("old", n, "out-of-place", s)]), med(t[("new", n, "out-of-place", s)])
        oi, ni = med(t[("old", n, "in-place", s)]), med(t[("new", n, "in-place", s)])
        m = med(t[("mpi", n, "out-of-place", s)])
        print(f"  {s >> 10:>5}K: {nw / o:.2f} [{ni / oi:.2f}], {m / nw:.2f} [{m / ni:.2f}];"
              f" {o:.1f} {nw:.1f} {m:.1f}")
