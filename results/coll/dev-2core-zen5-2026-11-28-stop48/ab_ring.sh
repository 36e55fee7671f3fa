#!/bin/bash
# Same-run A/B of ringx.patch (applied to b774e63, built in build/): RINGX=0 (main's ring) and
# RINGX=1 in turns, 4 rounds, 2 ranks, ordinary buffers, f32, 256 KiB-32 MiB, 20 calls a size.
# Prints, per size, the median time of each and old / new. Run from the repository root.
set -eu
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for round in 1 2 3 4; do
    for x in 0 1; do
        RINGX=$x mpirun --allow-run-as-root --oversubscribe -np 2 -x RINGX \
            build/benches/vsym-bench allreduce --dtype f32 -b 256K -e 32M -f 2 -n 20 --check 2>&1 |
            grep -E "^\s+[0-9]" | head -8 >"$out/r${round}_x$x.txt"
    done
done
python3 - "$out" <<'PY'
import glob, statistics as st, sys
d = {}
for f in glob.glob(sys.argv[1] + '/r*_x*.txt'):
    x = f.split('_x')[1][0]
    for line in open(f):
        p = line.split()
        d.setdefault((int(p[0]), x), []).append((float(p[2]), float(p[6])))
for size in sorted({k[0] for k in d}):
    a, b = d[(size, '0')], d[(size, '1')]
    ma = [st.median(v[i] for v in a) for i in (0, 1)]
    mb = [st.median(v[i] for v in b) for i in (0, 1)]
    print(size, "oop %.1f -> %.1f (%.2f)  ip %.1f -> %.1f (%.2f)" %
          (ma[0], mb[0], ma[0] / mb[0], ma[1], mb[1], ma[1] / mb[1]))
PY
