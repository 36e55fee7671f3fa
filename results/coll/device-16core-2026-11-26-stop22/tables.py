#!/usr/bin/env python3
"""Tables of the stop 22 device runs: python3 tables.py DIR1 DIR2 (the unpacked run1.tgz, run2.tgz).
1. All-reduce, symmetric buffers, out of place (f32 sum): median over the rounds of old (in place
   from 256 KiB) and new (from 4 KiB), new/old, and Open MPI's MPI_Allreduce over new.
2. Fused, per rank count, op and buffer kind: per size best fused mode / baseline and auto /
   baseline (paired medians over the suite's 5 rounds), for the tuning and the loading launch."""
import glob, json, os, statistics, sys
from collections import defaultdict

dirs = sys.argv[1:]
def recs(path):
    out = []
    for line in open(path):
        line = line.strip()
        if line.startswith('{'):
            try: out.append(json.loads(line))
            except ValueError: pass
    return out

t = defaultdict(list)   # (v, np, size) -> oop times, symmetric
mpi = {}
for d in dirs:
    for p in glob.glob(os.path.join(d, 'ar', '*.jsonl')):
        v, npx, _ = os.path.basename(p)[:-6].split('_')
        for r in recs(p):
            if r.get('mode') == 'out-of-place-symmetric' and r.get('wrong') == 0:
                t[(v, int(npx[2:]), r['size'])].append(r['time_us'])
    for p in glob.glob(os.path.join(d, 'ref', 'mpi_np*.jsonl')):
        np_ = int(os.path.basename(p)[6:-6])
        for r in recs(p):
            if r.get('mode') == 'out-of-place':
                mpi.setdefault((np_, r['size']), r['lat_us']['avg'])
print('All-reduce, symmetric buffers, out of place, f32 sum: medians over rounds (us)')
print('%4s %8s %9s %9s %8s %9s' % ('np', 'size', 'old', 'new', 'new/old', 'MPI/new'))
for (v, np_, size) in sorted(k for k in t if k[0] == 'new'):
    o = statistics.median(t[('old', np_, size)]); n = statistics.median(t[('new', np_, size)])
    m = mpi.get((np_, size))
    print('%4d %8d %9.2f %9.2f %8.2f %9s' % (np_, size, o, n, n / o, '%.2f' % (m / n) if m else '-'))

print('\nFused: best fused mode / baseline and auto / baseline (paired medians of 5 rounds)')
for d in dirs:
    for p in sorted(glob.glob(os.path.join(d, 'fused', '*.jsonl'))):
        kind, npx = os.path.basename(p)[:-6].split('_')
        rows = defaultdict(dict)
        for r in recs(p):
            if 'topology' not in r: continue
            tp = r['topology']
            key = (r['op'], tp['local_tp'], tp['local_dp'], r.get('buffers', 'ordinary'))
            rows[key].setdefault(r['size'], {})[r['mode']] = (r.get('speedup_vs_baseline'), r.get('selected'), r.get('wrong'))
        for key in sorted(rows):
            if key[0] not in ('allreduce_allgather', 'reducescatter_allreduce'): continue
            cells = []
            for size in sorted(rows[key]):
                m = rows[key][size]
                best = max((v[0] or 0) for k, v in m.items() if k not in ('baseline', 'auto'))
                auto = m.get('auto', (None,))[0]
                cells.append('%s:%.2f/%.2f' % (size if size < 1024 else '%dK' % (size // 1024), best, auto or 0))
            print('%-5s %s %-24s tp %2d dp %2d %-9s %s' % (kind, npx, key[0], key[1], key[2], key[3], ' '.join(cells)))
