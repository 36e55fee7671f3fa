#!/usr/bin/env python3
"""Tables of run.sh's records: python3 tables.py DIR (the OUT folder of run.sh). Columns: Open MPI
(mpi_*), this tree (vsym_*) and every other build of the run (LABEL_*), average us per call; the
ratios are the other column over vsym's (above 1: vsym faster)."""
import glob, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from softroce_records import f, q, t
import softroce_records

d = sys.argv[1] if len(sys.argv) > 1 else '.'
labels = sorted({os.path.basename(p).split('_allreduce_')[0]
                 for p in glob.glob(os.path.join(d, '*_allreduce_np2_r1.jsonl'))} - {'mpi', 'vsym'})
cols = ['mpi', 'vsym'] + labels

def load(name):
    return softroce_records.load(d, name)

for np in (2, 4):
    print(f'## all-reduce, {np} ranks over 2 pretend nodes (f32 sum, ordinary buffers, us; '
          f'ratio = column / vsym)')
    print('round     size mode | ' + ' '.join('%8s' % c for c in cols) + ' | ' +
          ' '.join('%5s' % c[:5] for c in cols if c != 'vsym'))
    for rnd in (1, 2):
        v = {c: {(r['mode'], r['size']): t(r) for r in load(f'{c}_allreduce_np{np}_r{rnd}.jsonl')
                 if r.get('suite') == 'allreduce'} for c in cols}
        for s in sorted({k[1] for k in v['vsym']}):
            for mode in ('out-of-place', 'in-place'):
                row = [v[c].get((mode, s)) for c in cols]
                base = row[1]
                print(f'{rnd} {s:10d} {mode[:3]:4s} | ' + ' '.join(f(x) for x in row) + ' | ' +
                      ' '.join(q(x, base) for c, x in zip(cols, row) if c != 'vsym'))
    print()

print('## fused pairs, 4 ranks: tp 2 inside each pretend node, dp 2 across (us). MPI: the TP-then-DP')
print('## sequence; base, one, auto: the unfused baseline, the one-shot mode and AUTO of each build')
print('round op size buffers | MPI | ' + ' | '.join(f'{c} base one auto' for c in cols[1:]) +
      ' | MPI/auto | one/vsym-one per build')
for rnd in (1, 2):
    mp = {(r['op'], r['size']): t(r) for r in load(f'mpi_fused_np4_r{rnd}.jsonl')}
    fz = {c: {(r['op'], r['size'], r['buffers'], r['mode']): r['time_us']
              for r in load(f'{c}_fused_np4_r{rnd}.jsonl')} for c in cols[1:]}
    for (op, s, b, mode) in sorted(fz['vsym']):
        if mode != 'auto' or op not in ('allreduce_allgather', 'reducescatter_allreduce'):
            continue
        g = lambda c, m: fz[c].get((op, s, b, m))
        short = 'AR+AG' if op.startswith('allreduce') else 'RS+AR'
        print(f'{rnd} {short} {s:6d} {b:9s} | {f(mp.get((op, s)))} | ' +
              ' | '.join(f'{f(g(c, "baseline"))} {f(g(c, "oneshot"))} {f(g(c, "auto"))}'
                         for c in cols[1:]) +
              f' | {q(mp.get((op, s)), g("vsym", "auto"))} | ' +
              ' '.join(q(g(c, 'oneshot'), g('vsym', 'oneshot')) for c in cols[2:]))
