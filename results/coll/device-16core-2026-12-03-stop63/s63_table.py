#!/usr/bin/env python3
"""Stop 63's table: for every collective, rank count, mode and size, time under VSYM_NT_THRESHOLD
auto over time under each other threshold (medians of the rounds; above 1: that threshold
faster). Usage: s63_table.py DIR (the extracted s63 folder)."""
import collections, glob, json, os, statistics, sys

t = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*.jsonl'))):
    op, np_, thr, _ = os.path.basename(f)[:-6].split('.')
    for line in open(f):
        x = json.loads(line)
        t[(op, int(np_[2:]), x['mode'], x['size'], thr)].append(x['time_us'])
keys = sorted({k[:4] for k in t}, key=lambda k: (k[0], k[1], k[2], k[3]))
rows = collections.defaultdict(list)
for k in keys:
    auto = statistics.median(t[k + ('auto',)])
    cells = []
    for thr in ('48M', '96M'):
        if k + (thr,) in t:
            cells.append('%s %.2f' % (thr, auto / statistics.median(t[k + (thr,)])))
    rows[k[:3]].append('%dM %s' % (k[3] >> 20, ' '.join(cells)))
print('# auto time / threshold time, medians of the rounds (above 1: the threshold faster)')
for k, cells in rows.items():
    print('%-14s np%d %-24s %s' % (k[0], k[1], k[2], ' | '.join(cells)))
