import json, glob, statistics as S, collections, sys
pat = sys.argv[1] if len(sys.argv) > 1 else 'runs/r1_*.jsonl'
D = collections.defaultdict(list); P = {}
for f in glob.glob(pat):
    parts = f.split('/')[-1].split('_')
    np, way = int(parts[1]), parts[2]
    for l in open(f):
        r = json.loads(l)
        D[(np, way, r['mode'], r['size'])].append(r['time_us']); P[(np, way, r['mode'], r['size'])] = r.get('path')
for np in (2, 4):
    print(f"# allreduce {np} ranks f32, touch+consume: medians (us) of launches; default (AMD: in place from 4K) | zero-copy off; off/def")
    for mode in ('out-of-place','in-place','out-of-place-symmetric','in-place-symmetric'):
        for s in sorted({k[3] for k in D if k[0]==np}):
            a = D.get((np,'def',mode,s)); b = D.get((np,'zc0',mode,s))
            if not a or not b: continue
            a, b = S.median(a), S.median(b)
            print(f"{s:>9} {mode:<24} {a:9.2f} {P[(np,'def',mode,s)]:<20} | {b:9.2f} {P[(np,'zc0',mode,s)]:<20} {b/a:5.2f}")
