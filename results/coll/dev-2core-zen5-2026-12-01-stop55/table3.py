import json, glob, statistics as S, collections
# run3.sh: the fused pairs, 4 ranks (2 x 2), f16, --touch --consume; default (AMD: the two-shot
# modes in place at any size) vs VSYM_COLL_ZEROCOPY_MIN=1G; medians of six launches
D = collections.defaultdict(list)
for f in glob.glob('runs/r3_*.jsonl'):
    b = f.split('/')[-1][:-6].split('_')
    op, way = b[1] + '_' + b[2], b[3]
    for l in open(f):
        r = json.loads(l)
        D[(op, r['buffers'], r['size'], r['mode'], way)].append(r['time_us'])
for op in ('allreduce_allgather', 'reducescatter_allreduce'):
    for buf in ('ordinary', 'symmetric'):
        print(f"# {op} {buf}: us medians, default | zc off; baseline/mode")
        for s in sorted({k[2] for k in D if k[0] == op}):
            cells = []
            for way in ('def', 'zc0'):
                base = S.median(D[(op, buf, s, 'baseline', way)])
                c = [f"base {base:7.1f}"]
                for m in ('oneshot', 'twoshot', 'fewest-bytes', 'auto'):
                    v = D.get((op, buf, s, m, way))
                    if v: c.append(f"{m[:3]} {S.median(v):7.1f} ({base / S.median(v):4.2f})")
                cells.append(' '.join(c))
            print(f"{s:>8} " + ' | '.join(cells))
