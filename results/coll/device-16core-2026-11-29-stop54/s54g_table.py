import json, glob, statistics as S, collections, sys, os
# run_s54g.sh rounds: the block collectives on symmetric buffers, --touch --consume, read in place (default) vs through the scratch (VSYM_COLL_ZEROCOPY_MIN=1G); medians of the rounds
D = collections.defaultdict(list); P = {}
for d in sys.argv[1:]:
    for f in glob.glob(d + '/*.jsonl'):
        suite, np, way = os.path.basename(f)[:-6].split('.')
        np = int(np[2:])
        for l in open(f):
            r = json.loads(l)
            if 'symmetric' not in r['mode']: continue
            D[(suite, np, r['mode'], r['size'], way)].append(r['time_us']); P[(suite, np, r['mode'], r['size'], way)] = r.get('path')
print("# us, read in place (default) / through the scratch; scratch time over in-place time (< 1: the scratch faster)")
for key in sorted({k[:3] for k in D}):
    cells = []
    for s in sorted({k[3] for k in D if k[:3] == key}):
        a, z = D.get(key + (s, 'def')), D.get(key + (s, 'zc0'))
        if a and z:
            cells.append(f"{s // 1024}K {S.median(a):.1f}/{S.median(z):.1f}={S.median(z) / S.median(a):.2f}{'' if P[key + (s, 'def')] == 'symmetric-in-place' else '*'}")
    print(f"{key[0]:<14} {key[1]:>2} {key[2]:<23} " + " | ".join(cells))
