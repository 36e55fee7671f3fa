#!/usr/bin/env python3
# Tables of run2.sh (run where own/ is unpacked): per collective, rank count, mode and size the
# time per call (us) of each launch before (old) and after (new), the ratio of the medians
# before / after, and Open MPI / after (out of place).
import json, glob, os, statistics as st, collections
D = collections.defaultdict(list)
wrong = 0
for f in glob.glob('own/*.jsonl'):
    kind = os.path.basename(f).split('_')[0]
    for line in open(f):
        r = json.loads(line)
        if 'symmetric' in r['mode']:
            continue
        t = r['lat_us']['avg'] if kind == 'mpi' else r['time_us']
        if kind != 'mpi':
            wrong += r.get('wrong') or 0
        D[(r['suite'], r['config']['ranks'], r['mode'], r['size'], kind)].append(t)
print('#wrong over every vsym record: %d' % wrong)
for s, n, mode in sorted(set(k[:3] for k in D)):
    print('\n%s, %d ranks, %s' % (s, n, mode))
    for z in sorted(set(k[3] for k in D if k[:3] == (s, n, mode))):
        o, w, m = (D.get((s, n, mode, z, k), []) for k in ('old', 'new', 'mpi'))
        print('%9d before %-26s after %-26s before/after %.2f%s' %
              (z, ' '.join('%7.1f' % x for x in o), ' '.join('%7.1f' % x for x in w),
               st.median(o) / st.median(w),
               '  mpi/after %.2f' % (st.median(m) / st.median(w)) if m else ''))
