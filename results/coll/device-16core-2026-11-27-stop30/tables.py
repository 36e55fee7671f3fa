#!/usr/bin/env python3
# Tables of a stop-30 streaming run (run inside the folder that holds stream/ or the *.jsonl):
# per collective, rank count and size, the time per call (us) of each launch for
# VSYM_COLL_STREAM_MIN=1 (always), 0 (never), auto and Open MPI, ordinary buffers, out of place
# and in place (Open MPI: out of place only), then the ratios of the medians over the rounds:
# never / always, never / auto, Open MPI / auto. Also prints the #wrong total.
import json, glob, os, statistics as st, collections
D = collections.defaultdict(list)
wrong = 0
files = glob.glob('stream/*.jsonl') or glob.glob('*.jsonl')
for f in files:
    kind = os.path.basename(f).split('_')[0]
    for line in open(f):
        if not line.startswith('{'):
            continue
        r = json.loads(line)
        if 'symmetric' in r['mode']:
            continue
        if kind == 'mpi':
            t = r['lat_us']['avg']
        else:
            t = r['time_us']
            wrong += r.get('wrong') or 0
        D[(r['suite'], r['config']['ranks'], r['mode'], r['size'], kind)].append(t)
print('#wrong over every vsym record: %d' % wrong)
med = lambda v: st.median(v) if v else float('nan')
for suite, np_, mode in sorted(set(k[:3] for k in D)):
    print('\n%s, %d ranks, %s (us per call, each launch; ratios of medians)' % (suite, np_, mode))
    print('%9s | %-17s | %-17s | %-17s | %-17s | never/always never/auto mpi/auto' %
          ('size', 'always (1)', 'never (0)', 'auto', 'Open MPI'))
    for size in sorted(set(k[3] for k in D if k[:3] == (suite, np_, mode))):
        g = lambda kind: D.get((suite, np_, mode, size, kind), [])
        cells = [' '.join('%8.1f' % x for x in g(k)) for k in ('s1', 's0', 'sauto', 'mpi')]
        a, n, au, m = (med(g(k)) for k in ('s1', 's0', 'sauto', 'mpi'))
        print('%9d | %-17s | %-17s | %-17s | %-17s | %6.2f %11.2f %9s' %
              (size, cells[0], cells[1], cells[2], cells[3] or '-', n / a, n / au,
               '%.2f' % (m / au) if g('mpi') else '-'))
