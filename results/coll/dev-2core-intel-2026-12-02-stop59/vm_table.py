#!/usr/bin/env python3
"""python3 vm_table.py DIR...: the Soft-RoCE VM runs of this stop (each DIR the OUT folder of one
boot of ../softroce-2core-zen3-2026-11-26-stop23/run.sh, two rounds each): per size, the median
[min-max] over every round of Open MPI's time over vsym's (above 1: vsym faster) for the
all-reduce, and of Open MPI's TP-then-DP sequence and the library's baseline over AUTO for the
fused pairs."""
import os, statistics, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from softroce_records import load, t


def span(v):
    return '%.2f [%.2f-%.2f] n=%d' % (statistics.median(v), min(v), max(v), len(v)) if v else '-'


dirs = sys.argv[1:]
for np in (2, 4):
    print(f'## all-reduce, {np} ranks over 2 pretend nodes, f32 sum, ordinary buffers: '
          'Open MPI / vsym (time)')
    rows = {}
    for d in dirs:
        for rnd in (1, 2):
            v = {(r['mode'], r['size']): t(r) for r in load(d, f'vsym_allreduce_np{np}_r{rnd}.jsonl')
                 if r.get('suite') == 'allreduce' and r.get('buffers', 'ordinary') == 'ordinary'}
            m = {(r['mode'], r['size']): t(r) for r in load(d, f'mpi_allreduce_np{np}_r{rnd}.jsonl')}
            for k in v:
                if k in m:
                    rows.setdefault(k, []).append(m[k] / v[k])
    for mode, size in sorted(rows, key=lambda k: (k[1], k[0] != 'out-of-place')):
        print('%8d %-12s %s' % (size, mode, span(rows[(mode, size)])))
    print()
print('## fused pairs, 4 ranks, TP 2 inside each pretend node, DP 2 across, f32, untuned AUTO')
print('## (across nodes the baseline): Open MPI TP-then-DP / AUTO, baseline / AUTO (time)')
rows = {}
for d in dirs:
    for rnd in (1, 2):
        mp = {(r['op'], r['size']): t(r) for r in load(d, f'mpi_fused_np4_r{rnd}.jsonl')}
        fz = {(r['op'], r['size'], r['buffers'], r['mode']): r['time_us']
              for r in load(d, f'vsym_fused_np4_r{rnd}.jsonl')}
        for (op, s, b, mode), a in fz.items():
            if mode != 'auto' or op not in ('allreduce_allgather', 'reducescatter_allreduce'):
                continue
            e = rows.setdefault((op, s, b), ([], []))
            if (op, s) in mp:
                e[0].append(mp[(op, s)] / a)
            if (op, s, b, 'baseline') in fz:
                e[1].append(fz[(op, s, b, 'baseline')] / a)
for (op, s, b) in sorted(rows):
    print('%-24s %6d %-9s  MPI/auto %s  base/auto %s' % (op, s, b, span(rows[(op, s, b)][0]),
                                                        span(rows[(op, s, b)][1])))
