import json, glob, statistics as S, collections
# after the rule changes (run6.sh), --touch --consume: the fused pairs' AUTO against the baseline, and the all-reduce's paths
D = collections.defaultdict(list); P = {}
for f in glob.glob('runs/r6_*.jsonl'):
    for l in open(f):
        r = json.loads(l); t = r['topology']
        if (t['local_tp'], t['local_dp']) != (2, 2): continue
        D[(r['op'], r['buffers'], r['size'], r['mode'])].append(r['time_us'])
        if r['mode'] == 'auto': P[(r['op'], r['buffers'], r['size'])] = r.get('selected')
print("# fused, 4 ranks (2 x 2), f16, --touch --consume, medians of three launches: us; base/auto (speed)")
for op in sorted({k[0] for k in D}):
    for buf in ('ordinary', 'symmetric'):
        print(f"# {op} {buf}")
        for s in sorted({k[2] for k in D if k[:2] == (op, buf)}):
            g = lambda m: S.median(D[(op, buf, s, m)]) if D.get((op, buf, s, m)) else float('nan')
            b, a = g('baseline'), g('auto')
            print(f"{s:>9} base {b:8.2f} one {g('oneshot'):8.2f} two {g('twoshot'):8.2f} auto {a:8.2f} ({P.get((op,buf,s))})  base/auto {b/a:5.2f}")
A = collections.defaultdict(list); AP = {}
for f in glob.glob('runs/r6ar_*.jsonl'):
    np = int(f.split('_')[1])
    for l in open(f):
        r = json.loads(l); A[(np, r['mode'], r['size'])].append(r['time_us']); AP[(np, r['mode'], r['size'])] = r['path']
print("# allreduce f32 --touch --consume, medians of three launches (us) and path")
for np in (2, 4):
    for mode in ('out-of-place', 'in-place', 'out-of-place-symmetric', 'in-place-symmetric'):
        print(f"{np} {mode:<24} " + " ".join(f"{s//1024}K:{S.median(A[(np,mode,s)]):.2f}/{AP[(np,mode,s)]}" for s in sorted({k[2] for k in A if k[0]==np})))
