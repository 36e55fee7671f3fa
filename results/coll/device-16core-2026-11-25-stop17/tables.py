#!/usr/bin/env python3
# Tables of device runs 1 and 2 (extract run1.tgz and run2.tgz here first: folders r/ and r2/).
# Run 1: per rank count and size, the out-of-place time (us, the better of two rounds) of each
# forced algorithm and of AUTO (before the rule changed), with Open MPI. Run 2: AUTO with the new
# rule next to Open MPI per round; one-shot against two-shot at small sizes; bf16 at 2 ranks.
import collections, glob, json, os
here = os.path.dirname(os.path.abspath(__file__))

def load(pattern, modes=('out-of-place',)):
    d = collections.defaultdict(list)
    for f in sorted(glob.glob(os.path.join(here, pattern))):
        for line in open(f):
            r = json.loads(line)
            if r['mode'] in modes:
                d[r['size']].append(r.get('time_us') or r['lat_us']['avg'])
    return d

print('# Run 1: forced algorithms (better of two rounds, us), ordinary buffers, out of place')
for dt, prefix in (('f32', 'ar'), ('bf16', 'arbf16')):
    for np in (2, 4, 8, 16):
        algos = ('auto', 'oneshot', 'twoshot', 'ring')
        runs = {a: load(f'r/{prefix}_{a}_np{np}_r*.jsonl') for a in algos}
        if not runs['auto']: continue
        mpi = load(f'r/mpi_np{np}.jsonl') if dt == 'f32' else {}
        print(f'## {dt}, {np} ranks: size | MPI | ' + ' '.join('%9s' % a for a in algos) + ' | ring/auto')
        for s in sorted(runs['auto']):
            row = [min(runs[a][s]) if runs[a].get(s) else 0 for a in algos]
            m = min(mpi[s]) if mpi.get(s) else 0
            print('%9d | %9.1f | %s | %.2f' % (s, m, ' '.join('%9.1f' % x for x in row),
                                              row[0] / row[3] if row[3] else 0))
print('\n# Run 2: AUTO with the new rule against Open MPI, per round (us), out of place')
for np in (2, 4, 8, 16):
    m = load(f'r2/mpi_np{np}_r*.jsonl'); v = load(f'r2/ar_auto_np{np}_r*.jsonl')
    sym = load(f'r2/ar_auto_np{np}_r*.jsonl', ('out-of-place-symmetric',))
    print(f'## {np} ranks: size | MPI r1 r2 | vsym r1 r2 | MPI/vsym r1 r2 | vsym symmetric r1 r2')
    for s in sorted(v):
        print('%9d | %s | %s | %s | %s' % (s, ' '.join('%8.1f' % x for x in m[s]),
              ' '.join('%8.1f' % x for x in v[s]),
              ' '.join('%5.2f' % (a / b) for a, b in zip(m[s], v[s])),
              ' '.join('%8.1f' % x for x in sym[s])))
for np in (8, 16):
    o = load(f'r2/ar_oneshot_small_np{np}_r*.jsonl'); t = load(f'r2/ar_twoshot_small_np{np}_r*.jsonl')
    print(f'## {np} ranks, small sizes: size | one-shot r1 r2 | two-shot r1 r2 (us)')
    for s in sorted(o):
        print('%6d | %s | %s' % (s, ' '.join('%6.2f' % x for x in o[s]), ' '.join('%6.2f' % x for x in t[s])))
a = load('r2/arbf16_auto_np2_r*.jsonl'); t = load('r2/arbf16_twoshot_np2_r*.jsonl')
print('## bf16, 2 ranks: size | AUTO (new rule) r1 r2 | two-shot r1 r2 (us)')
for s in sorted(a):
    print('%9d | %s | %s' % (s, ' '.join('%8.1f' % x for x in a[s]), ' '.join('%8.1f' % x for x in t[s])))
