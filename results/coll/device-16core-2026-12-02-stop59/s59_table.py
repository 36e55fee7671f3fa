# usage: s59_table.py DIR VARIANT... (DIR an extracted run: s59 with off on mpi, s59b with ring
# twoshot pcopy mpi, s59c with plain.ring plain.twoshot plain.mpi or tc.ring ...): the all-reduce
# of ordinary buffers, per ranks, mode and size, each variant's median time over its rounds (us),
# each variant's median over the last one's (the reference: Open MPI), and the first variant's
# time over the second's per round.
import collections, glob, json, os, statistics, sys
d = collections.defaultdict(list)
vs = sys.argv[2:]
for f in sorted(glob.glob(os.path.join(sys.argv[1], 'ar.np*.jsonl'))):
    # ar, npN, the variant's parts, rR (Open MPI's of run 1 without it)
    p = os.path.basename(f).split('.')[:-1]
    if p[-1][0] == 'r' and p[-1][1:].isdigit():
        p = p[:-1]
    np, v = int(p[1][2:]), '.'.join(p[2:])
    for l in open(f):
        r = json.loads(l)
        if r.get('buffers', 'ordinary') != 'ordinary':
            continue
        t = r['lat_us']['avg'] if r.get('tool') == 'mpi-coll' else r['time_us']
        d[(np, r['mode'], r['size'], v)].append(t)
for np in sorted({k[0] for k in d}):
    for mode in ('out-of-place', 'in-place'):
        print('%d ranks, %s: medians (us) %s | over %s | %s/%s per round' % (
            np, mode, ' '.join(vs), vs[-1], vs[0], vs[1]))
        for s in sorted({k[2] for k in d if k[0] == np and k[1] == mode}):
            m = [statistics.median(d[(np, mode, s, v)]) if d[(np, mode, s, v)] else float('nan')
                 for v in vs]
            per = [a / b for a, b in zip(d[(np, mode, s, vs[0])], d[(np, mode, s, vs[1])])]
            print('  %9d %s | %s | %s' % (s, ' '.join('%9.1f' % x for x in m),
                                          ' '.join('%.2f' % (x / m[-1]) for x in m[:-1]),
                                          ' '.join('%.2f' % x for x in per)))
