#!/usr/bin/env python3
# Tables of this folder's device runs. Extract first: for r in run2-rule run2-tuned; do tar xzf
# $r.tgz; done (run 2, after vsym_team_exchange stopped going through PMIx; the archives of run 1
# extract to the same names: extract one run at a time).
# Per op, TP x DP split and size: the best fused mode's speed-up over the baseline and AUTO's
# (each the median over five rounds of the baseline's time over the mode's in the same round),
# then a summary of AUTO / baseline split by what AUTO ran.
import collections, glob, json, os
here = os.path.dirname(os.path.abspath(__file__))
for part in ('rule', 'tuned'):
    by = collections.defaultdict(dict)
    for f in sorted(glob.glob(os.path.join(here, part, '*.jsonl'))):
        for l in open(f):
            x = json.loads(l)
            if 'topology' not in x: continue
            t = x['topology']
            by[(x['op'], x['config']['ranks'], t['local_tp'], t['local_dp'])][x['size']] = by[(x['op'], x['config']['ranks'], t['local_tp'], t['local_dp'])].get(x['size'], {})
            by[(x['op'], x['config']['ranks'], t['local_tp'], t['local_dp'])][x['size']][x['mode']] = x
    print(f'## {part}: size: best fused / baseline (mode), auto / baseline (what auto ran)')
    same, fused = [], []
    for key in sorted(by):
        row = []
        for size in sorted(by[key]):
            d = by[key][size]
            modes = {m: r['speedup_vs_baseline'] for m, r in d.items() if m not in ('baseline', 'auto')}
            best = max(modes, key=modes.get)
            a = d['auto']
            row.append('%d: %.2f %s, %.2f %s' % (size, modes[best], best[:3], a['speedup_vs_baseline'], a['selected'][:3]))
            (same if a['selected'] == 'baseline' else fused).append(a['speedup_vs_baseline'])
        print('%s %d ranks tp %d x dp %d | ' % key + '; '.join(row))
    if same:
        print('auto ran the baseline itself: %d rows, %.2f-%.2f, 0.95-1.05 in %d' % (len(same), min(same), max(same), sum(0.95 <= v <= 1.05 for v in same)))
    if fused:
        print('auto ran a fused mode: %d rows, %.2f-%.2f, >= 0.95 in %d, >= 1.3 in %d' % (len(fused), min(fused), max(fused), sum(v >= 0.95 for v in fused), sum(v >= 1.3 for v in fused)))
