# usage: s59_table.py DIR (the extracted s59): per ranks, mode and size, the all-reduce's time
# with the scratch paths (off: VSYM_COLL_PCOPY_MIN=0) and through process-to-process copies (on:
# 1M), medians of the two rounds, off/on per round (above 1: the copies faster), Open MPI's time
# and on / Open MPI (ordinary buffers, --touch --consume).
import collections, glob, json, os, statistics, sys
d = collections.defaultdict(list)
for f in glob.glob(os.path.join(sys.argv[1], 'ar.np*.jsonl')):
    p = os.path.basename(f).split('.')
    np, v = int(p[1][2:]), p[2]
    for l in open(f):
        r = json.loads(l)
        if r.get('buffers', 'ordinary') != 'ordinary':
            continue
        t = r['lat_us']['avg'] if r.get('tool') == 'mpi-coll' else r['time_us']
        d[(np, r['mode'], r['size'], v)].append(t)
for np in (2, 4, 8, 16):
    for mode in ('out-of-place', 'in-place'):
        print('%d ranks, %s' % (np, mode))
        for s in sorted({k[2] for k in d if k[0] == np and k[1] == mode}):
            off, on, m = (d.get((np, mode, s, v), []) for v in ('off', 'on', 'mpi'))
            if not off or not on:
                continue
            print('  %9d off %9.1f on %9.1f  off/on %s  mpi %s  on/mpi %s' % (
                s, statistics.median(off), statistics.median(on),
                ' '.join('%.2f' % (a / b) for a, b in zip(off, on)),
                '%.1f' % m[0] if m else '-',
                '%.2f' % (statistics.median(on) / m[0]) if m else '-'))
