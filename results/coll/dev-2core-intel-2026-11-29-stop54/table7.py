import json, glob, statistics as S, collections, sys
# run7.sh: the block collectives on symmetric buffers, --touch --consume; default (read in place from 4 KiB) vs VSYM_COLL_ZEROCOPY_MIN=1G; medians of three launches
D = collections.defaultdict(list); P = {}
for f in glob.glob(sys.argv[1] if len(sys.argv) > 1 else 'runs/r7_*.jsonl'):
    b = f.split('/')[-1][:-6].split('_')
    np, suite, way = int(b[1]), b[2], b[3]
    for l in open(f):
        r = json.loads(l)
        if 'symmetric' not in r['mode']: continue
        D[(suite, np, r['mode'], r['size'], way)].append(r['time_us']); P[(suite, np, r['mode'], r['size'], way)] = r.get('path')
print("# us, default (path) | zero-copy off (path); off/default (< 1: the scratch faster)")
for key in sorted({k[:3] for k in D}):
    cells = []
    for s in sorted({k[3] for k in D if k[:3] == key}):
        a, z = D.get(key + (s, 'def')), D.get(key + (s, 'zc0'))
        if a and z:
            cells.append(f"{s // 1024}K {S.median(a):.1f}/{S.median(z):.1f}={S.median(z) / S.median(a):.2f}")
    print(f"{key[0]} {key[1]} ranks {key[2]}: " + " | ".join(cells))
