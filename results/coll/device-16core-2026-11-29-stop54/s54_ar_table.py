import json, glob, statistics as S, collections, sys, os
d = sys.argv[1]
D = collections.defaultdict(list); P = {}
for f in glob.glob(d + '/ar.*.jsonl'):
    b = os.path.basename(f)[:-6].replace('.b','').split('.')
    np = int(b[1][2:]); way = '.'.join(b[2:])
    for l in open(f):
        r = json.loads(l)
        D[(np, way, r['mode'], r['size'])].append(r['time_us']); P[(np, way, r['mode'], r['size'])] = r.get('path')
print("# allreduce f32, vsym-bench: us; touch+consume default | tc zero-copy off | touch only default; zc0/def (tc)")
for np in sorted({k[0] for k in D}):
    for mode in ('out-of-place','in-place','out-of-place-symmetric','in-place-symmetric'):
        for s in sorted({k[3] for k in D if k[0]==np}):
            g = lambda w: S.median(D[(np,w,mode,s)]) if D.get((np,w,mode,s)) else float('nan')
            a, z, t = g('tc'), g('tc.zc0'), g('t')
            print(f"{np:>3} {s:>8} {mode:<24} {a:9.2f} {P.get((np,'tc',mode,s),''):<19} | {z:9.2f} {P.get((np,'tc.zc0',mode,s),''):<10} | {t:9.2f}  {z/a:5.2f}  cons/t {a/t:5.2f}")
