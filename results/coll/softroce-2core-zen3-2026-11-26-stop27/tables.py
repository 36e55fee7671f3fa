#!/usr/bin/env python3
"""Tables of run.sh's records: python3 tables.py DIR (the OUT folder of run.sh, both WHATs). Average
us per call of Open MPI (mpi), vsym with the defaults (vsym), every exchange block as a put +
counter add (counter), flagged words up to 4 KiB (words4k), the broadcast through the scratch
(scratch); the ratios are the other column over vsym's (above 1: vsym faster); then the median of
each ratio per row over the rounds."""
import glob, os, statistics, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from softroce_records import f, load, q, t

d = sys.argv[1] if len(sys.argv) > 1 else '.'
cols = ['mpi', 'vsym', 'counter', 'words4k', 'scratch']
rounds = sorted({int(p.rsplit('_r', 1)[1].split('.')[0])
                 for p in glob.glob(os.path.join(d, 'vsym_*_r*.jsonl'))})

for kind, nps in (('allreduce', (2, 4)), ('allgather', (2,)), ('alltoall', (2,)),
                  ('broadcast', (2, 4))):
    for np in nps:
        if not glob.glob(os.path.join(d, f'vsym_{kind}_np{np}_r*.jsonl')):
            continue
        print(f'## {kind}, {np} ranks over 2 pretend nodes (ordinary buffers, us; '
              f'ratio = column / vsym)')
        print('round     size mode | ' + ' '.join('%8s' % c for c in cols) + ' | ' +
              ' '.join('%7s' % c[:7] for c in cols if c != 'vsym'))
        med = {}
        for rnd in rounds:
            v = {c: {(r['mode'], r['size']): t(r)
                     for r in load(d, f'{c}_{kind}_np{np}_r{rnd}.jsonl')
                     if r.get('suite') == kind and r.get('buffers', 'ordinary') == 'ordinary'}
                 for c in cols}
            for s in sorted({k[1] for k in v['vsym']}):
                for mode in ('out-of-place', 'in-place'):
                    row = [v[c].get((mode, s)) for c in cols]
                    base = row[1]
                    for c, x in zip(cols, row):
                        if c != 'vsym' and x and base:
                            med.setdefault((s, mode, c), []).append(x / base)
                    print(f'{rnd:<5d} {s:8d} {mode[:3]:4s} | ' + ' '.join(f(x) for x in row) +
                          ' | ' + ' '.join('%7s' % q(x, base)
                                           for c, x in zip(cols, row) if c != 'vsym'))
        print('median over rounds:')
        for s in sorted({k[0] for k in med}):
            for mode in ('out-of-place', 'in-place'):
                print(f'      {s:8d} {mode[:3]:4s} | ' + ' '.join(
                    '%7s' % ('%.2f' % statistics.median(med[(s, mode, c)])
                             if (s, mode, c) in med else '-')
                    for c in cols if c != 'vsym'))
        print()
