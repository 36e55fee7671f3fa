#!/usr/bin/env python3
"""Tables of ab_twophase.sh's records: per 2 x 2 op, buffers and size, the median time of each
build's two-shot mode (or the column given) over the median of the first build's, then each
build's median of baseline / that mode within its launches (the speed over the baseline). Every
TP x DP split with TP and DP over 1 (the device's 8 and 16 ranks too: run_s42.sh there).
   ab_twophase_table.py OUT [first_build] [column: twoshot|oneshot|auto]"""
import glob
import re
import statistics as st
import sys

out = sys.argv[1]
first = sys.argv[2] if len(sys.argv) > 2 else 'old'
col = {'baseline': 0, 'oneshot': 1, 'twoshot': 2, 'auto': 4}[sys.argv[3] if len(sys.argv) > 3
                                                             else 'twoshot']
res = {}
for f in glob.glob(out + '/*.txt'):
    b = f.split('/')[-1].split('.')[0]
    key = None
    for line in open(f):
        if line.startswith('# fused'):
            m = re.match(r'# fused (\S+)\s+local_tp (\d+) local_dp (\d+).*dtype (\S+)\s+(\S+) buffers',
                         line)
            key = (m.group(1), m.group(2) + 'x' + m.group(3), m.group(4), m.group(5)) \
                if m and m.group(2) != '1' and m.group(3) != '1' else None
            continue
        if key and re.match(r'\s+\d+\s+\d+', line):
            v = line.split()
            res.setdefault((key, int(v[0])), {}).setdefault(b, []).append(
                [float(x) for x in v[2:7]])
builds = [first] + sorted({b for r in res.values() for b in r} - {first})
print('mode column %d; time / %s\'s: %s; baseline / mode, each build: %s' %
      (col, first, ' '.join(builds[1:]), ' '.join(builds)))
for (key, size), bb in sorted(res.items()):
    if first not in bb:
        continue
    med = lambda b: st.median(x[col] for x in bb[b])
    rel = ' '.join('%.2f' % (med(b) / med(first)) for b in builds[1:] if b in bb)
    spd = ' '.join('%.2f' % st.median(x[0] / x[col] for x in bb[b]) for b in builds if b in bb)
    print('%-24s %-5s %-4s %-9s %8d : %s | %s  (%d launches)' % (key[0], key[1], key[2], key[3],
                                                                  size, rel, spd, len(bb[first])))
