import json, glob, statistics as S, collections
# run4.sh against runs 1-3: medians (us) of the launches; old: the library before (run 1-3's
# default), zc0: VSYM_COLL_ZEROCOPY_MIN=1G, new: after the rule changes; old/new and zc0/new
# (above 1: the new rule faster)
def load(pat, key):
    D = collections.defaultdict(list); P = {}
    for f in glob.glob(pat):
        b = f.split('/')[-1][:-6].split('_')
        for l in open(f):
            r = json.loads(l)
            k = key(b, r)
            if k is None: continue
            D[k].append(r['time_us']); P[k] = r.get('path')
    return D, P
def cell(D, P, k_old, k_zc0, k_new):
    o, z, n = (S.median(D[k]) if D.get(k) else None for k in (k_old, k_zc0, k_new))
    if None in (o, z, n): return None
    return f"{o:8.2f} {z:8.2f} {n:8.2f} ({P[k_new]:<18}) {o / n:5.2f} {z / n:5.2f}"
# all-reduce
D, P = load('runs/r[14]_*.jsonl', lambda b, r: (int(b[1]), b[2], r['mode'], r['size']) if 'symmetric' in r['mode'] else None)
print("# all-reduce f32 symmetric buffers: old zc0 new (new path) old/new zc0/new")
for np in (2, 4):
    for mode in ('out-of-place-symmetric', 'in-place-symmetric'):
        for s in sorted({k[3] for k in D}):
            c = cell(D, P, (np, 'def', mode, s), (np, 'zc0', mode, s), (np, 'new', mode, s))
            if c: print(f"{np} {mode:<24} {s:>8} {c}")
D, P = load('runs/r[25]_*.jsonl', lambda b, r: (int(b[1]), b[2], b[3], r['mode'], r['size']) if 'symmetric' in r['mode'] else None)
print("# block collectives f32 symmetric buffers: old zc0 new (new path) old/new zc0/new")
for np in (2, 4):
    for suite in ('allgather', 'reduce-scatter', 'alltoall', 'broadcast'):
        for mode in ('out-of-place-symmetric', 'in-place-symmetric'):
            for s in sorted({k[4] for k in D}):
                c = cell(D, P, (np, suite, 'def', mode, s), (np, suite, 'zc0', mode, s), (np, suite, 'new', mode, s))
                if c: print(f"{np} {suite:<14} {mode:<24} {s:>8} {c}")
D, P = load('runs/r[36]_*.jsonl', lambda b, r: (b[1] + '_' + b[2], b[3], r['buffers'], r['mode'], r['size']))
print("# fused, 4 ranks (2 x 2), f16: AUTO's time old zc0 new, old/new zc0/new; new: baseline/AUTO")
for op in ('allreduce_allgather', 'reducescatter_allreduce'):
    for buf in ('ordinary', 'symmetric'):
        for s in sorted({k[4] for k in D}):
            ks = [(op, w, buf, 'auto', s) for w in ('def', 'zc0', 'new')]
            if not all(D.get(k) for k in ks): continue
            o, z, n = (S.median(D[k]) for k in ks)
            base = S.median(D[(op, 'new', buf, 'baseline', s)])
            print(f"{op:<24} {buf:<9} {s:>8} {o:8.2f} {z:8.2f} {n:8.2f} {o / n:5.2f} {z / n:5.2f}  base/auto {base / n:5.2f}")
