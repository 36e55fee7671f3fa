#!/usr/bin/env python3
# Tables of this folder's two device runs (extract run1.tgz and run2.tgz here first: r1/, r2/).
# Run 1: fused AR+AG and RS+AR, every TP x DP split of 4, 8, 16 ranks: best fused mode / baseline
# and auto / baseline per size (the suite's medians of three interleaved turns); the same at 8
# ranks with the autotune table; the copy service's ratios. Run 2: RS+AR one-shot before and
# after the block-only low-latency fetch, two launches each.
import glob, json, collections, os
here = os.path.dirname(os.path.abspath(__file__))
def load(pattern):
    t = collections.defaultdict(dict)
    for f in sorted(glob.glob(os.path.join(here, pattern))):
        for l in open(f):
            x = json.loads(l)
            tp = x['topology']
            t[(x['op'], tp['local_tp'], tp['local_dp'], x['size'])][x['mode']] = x['time_us']
    return t
for title, pat in (('run 1, no table (AUTO follows the rule of the binary run)', 'r1/[ra][sr]a[rg]_np[0-9]*.jsonl'),
                   ('run 1, 8 ranks with the autotune table', 'r1/*_tuned_np8.jsonl')):
    t = load(pat)
    print(f'## {title}: best fused mode / baseline, auto / baseline (best mode)')
    for key in sorted(set(k[:3] for k in t)):
        row = []
        for k in sorted(k for k in t if k[:3] == key):
            d = t[k]
            modes = {m: v for m, v in d.items() if m not in ('baseline', 'auto') and v > 0}
            best = min(modes, key=modes.get)
            row.append('%d: %.2f %.2f (%s)' % (k[3], d['baseline'] / modes[best], d['baseline'] / d['auto'], best[:3]))
        print(f'{key[0]} tp {key[1]} x dp {key[2]}: ' + ', '.join(row))
print('## run 2: RS+AR one-shot, us, before -> after (launch 1, launch 2); baseline / one-shot after')
t = collections.defaultdict(dict)
for f in sorted(glob.glob(os.path.join(here, 'r2/*.jsonl'))):
    _, v, np_, r = os.path.basename(f)[:-6].split('_')
    for l in open(f):
        x = json.loads(l); tp = x['topology']
        t[(int(np_[2:]), tp['local_tp'], tp['local_dp'], x['size'])][(v, r, x['mode'])] = x['time_us']
for k in sorted(t):
    d = t[k]
    print('%2d ranks tp %d x dp %d %6d B: ' % k + ' '.join('%.2f -> %.2f' % (d[('old', r, 'oneshot')], d[('new', r, 'oneshot')]) for r in ('r1', 'r2'))
          + ' | ' + ' '.join('%.2f' % (d[('new', r, 'baseline')] / d[('new', r, 'oneshot')]) for r in ('r1', 'r2')))
print('## run 1: copy service (per rank GB/s; ratios)')
for f in sorted(glob.glob(os.path.join(here, 'r1/copy_*.jsonl'))):
    for l in open(f):
        x = json.loads(l)
        print('%s %d ranks %d MiB: copy %.2f, put alone (%d MiB) %.2f, put_all %.2f; copy/put %.2f copy/put_all %.2f; iterations %d = delta %d; #wrong %d' % (
            x['pattern'], len(x['config']['hosts']) if 'hosts' in x['config'] else x['config']['ranks'], x['size'] >> 20, x['copy']['bw_per_rank_gbs'],
            x['put_single_peer_bytes'] >> 20, x['put_single_peer_gbs'], x['put_all_gbs'], x['copy_over_put'], x['copy_over_put_all'],
            x['schedule_iterations'], x['delta'], x['wrong']))
