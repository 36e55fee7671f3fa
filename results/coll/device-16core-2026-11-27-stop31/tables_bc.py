#!/usr/bin/env python3
"""Tables of run_bc.sh's records (bc.tgz unpacked into DIR): medians over the rounds, us, of the
ordinary-buffer broadcast with VSYM_COLL_BC_PIECE=0 and auto, and Open MPI's; time auto / 0 and
Open MPI / auto (out of place; in place in brackets)."""
import collections, glob, json, os, statistics, sys

d = sys.argv[1] if len(sys.argv) > 1 else "bc"
t = collections.defaultdict(list)
for f in glob.glob(os.path.join(d, "*.jsonl")):
    base = os.path.basename(f)[: -len(".jsonl")]
    who, np_, _ = base.split("_")
    for line in open(f):
        r = json.loads(line)
        if who == "mpi":
            t[(who, int(np_[2:]), "out-of-place", r["size"])].append(r["lat_us"]["avg"])
        elif r["mode"] in ("out-of-place", "in-place"):
            t[(who, int(np_[2:]), r["mode"], r["size"])].append(r["time_us"])
med = lambda xs: statistics.median(xs) if xs else float("nan")
for n in sorted({k[1] for k in t}):
    print(f"## {n} ranks: size: pieces / whole [in place], Open MPI / pieces [in place]; us whole, pieces, MPI")
    for s in sorted({k[3] for k in t if k[1] == n}):
        w, p = med(t[("piece0", n, "out-of-place", s)]), med(t[("pieceauto", n, "out-of-place", s)])
        wi, pi = med(t[("piece0", n, "in-place", s)]), med(t[("pieceauto", n, "in-place", s)])
        m = med(t[("mpi", n, "out-of-place", s)])
        print(f"  {s >> 10:>5}K: {p / w:.2f} [{pi / wi:.2f}], {m / p:.2f} [{m / pi:.2f}];"
              f" {w:.1f} {p:.1f} {m:.1f}")
