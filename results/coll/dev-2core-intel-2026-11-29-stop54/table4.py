import json, glob, statistics as S, collections, sys
D = collections.defaultdict(list)
for f in glob.glob('runs/r4_*.jsonl'):
    _, np, cons, x, rnd = f.split('/')[-1][:-6].split('_')
    for l in open(f):
        r = json.loads(l)
        D[(int(np), cons, x, r['mode'], r['size'])].append(r['time_us'])
for cons in ('tc', 't'):
  for np in (2, 4):
    print(f"# allreduce {np} ranks f32, {'touch+consume' if cons=='tc' else 'touch only'}: medians (us); push | pull oop | pull both; pull/push")
    for mode in ('out-of-place-symmetric','in-place-symmetric'):
        for s in sorted({k[4] for k in D if k[0]==np}):
            v = [S.median(D[(np,cons,x,mode,s)]) if D.get((np,cons,x,mode,s)) else float('nan') for x in '012']
            print(f"{s:>9} {mode:<24} {v[0]:9.2f} {v[1]:9.2f} {v[2]:9.2f}   {v[1]/v[0]:5.2f} {v[2]/v[0]:5.2f}  n={len(D[(np,cons,'0',mode,s)])}")
