import json, glob, statistics as S, collections, sys, os
# stop 54's check (run_s54v.sh, rounds v and v2): the all-reduce against Open MPI, the fused AUTO against the baseline; medians of the rounds
dirs = sys.argv[1:]
A = collections.defaultdict(list); P = {}
F = collections.defaultdict(list); SEL = {}
for d in dirs:
    for f in glob.glob(d + '/ar.*.jsonl'):
        _, np, who = os.path.basename(f)[:-6].split('.')
        np = int(np[2:])
        for l in open(f):
            r = json.loads(l)
            t = r['time_us'] if 'time_us' in r else r['lat_us']['avg']
            A[(np, who, r['mode'], r['size'])].append(t)
            if who == 'vsym': P[(np, r['mode'], r['size'])] = r.get('path')
    for f in glob.glob(d + '/fused.*.jsonl'):
        for l in open(f):
            r = json.loads(l); t = r['topology']
            tp, dp = t['local_tp'] * t['inter_tp'], t['local_dp'] * t['inter_dp']
            if tp < 2 or dp < 2: continue
            k = (r['op'], r['config']['ranks'], f"{tp}x{dp}", r['buffers'], r['size'])
            F[k + (r['mode'],)].append(r['time_us'])
            if r['mode'] == 'auto': SEL[k] = r.get('selected')
print("# all-reduce f32, --touch --consume: vsym / Open MPI (time), medians of the rounds; vsym's path")
for np in sorted({k[0] for k in A}):
    for mode in ('out-of-place', 'in-place', 'out-of-place-symmetric', 'in-place-symmetric'):
        mm = 'in-place' if mode.startswith('in-place') else 'out-of-place'
        cells = []
        for s in sorted({k[3] for k in A if k[0] == np}):
            v, m = A.get((np, 'vsym', mode, s)), A.get((np, 'mpi', mm, s))
            if v and m:
                cells.append(f"{s // 1024}K {S.median(v):.1f}/{S.median(m):.1f}={S.median(v) / S.median(m):.2f} {P.get((np, mode, s), '')}")
        print(f"{np:>2} {mode:<23} " + " | ".join(cells))
print("\n# fused, f16, --touch --consume: the baseline's time over AUTO's (rule), medians of the rounds; AUTO's mode")
for key in sorted({k[:4] for k in F}):
    cells = []
    for s in sorted({k[4] for k in F if k[:4] == key}):
        b, a = F.get(key + (s, 'baseline')), F.get(key + (s, 'auto'))
        if b and a:
            cells.append(f"{s // 1024}K {S.median(b) / S.median(a):.2f} {SEL.get(key + (s,), '')}")
    print(f"{key[0]} {key[1]} ranks {key[2]} {key[3]}: " + " | ".join(cells))
