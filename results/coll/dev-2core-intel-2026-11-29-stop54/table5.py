import json, glob, statistics as S, collections, sys
pat = sys.argv[1] if len(sys.argv) > 1 else 'runs/r5_*.jsonl'
D = collections.defaultdict(list)
for f in glob.glob(pat):
    b = f.split('/')[-1][:-6].split('_')
    op = '_'.join(b[1:-3]); cons, x = b[-3], b[-2]
    for l in open(f):
        r = json.loads(l)
        t = r['topology']
        tp = t['local_tp']*t['inter_tp']; dp = t['local_dp']*t['inter_dp']
        if tp < 2 or dp < 2: continue
        D[(op, f"{tp}x{dp}", r['buffers'], cons, x, r['size'], r['mode'])].append(r['time_us'])
keys = sorted({k[:3] for k in D})
for op, topo, buf in keys:
    for cons in ('tc', 't'):
        print(f"# {op} {topo} {buf} {'touch+consume' if cons=='tc' else 'touch'}: medians us; push: base one two auto | pull: two auto ; base/two push, pull; base/one")
        for s in sorted({k[5] for k in D if k[:3]==(op,topo,buf)}):
            g = lambda x, m: S.median(D[(op,topo,buf,cons,x,s,m)]) if D.get((op,topo,buf,cons,x,s,m)) else float('nan')
            b0, o0, t0, a0, t1, a1 = g('0','baseline'), g('0','oneshot'), g('0','twoshot'), g('0','auto'), g('1','twoshot'), g('1','auto')
            if t0 != t0: t0 = g('0','fewest_bytes'); t1 = g('1','fewest_bytes')
            print(f"{s:>8} {b0:8.2f} {o0:8.2f} {t0:8.2f} {a0:8.2f} | {t1:8.2f} {a1:8.2f} ; {b0/t0:5.2f} {b0/t1:5.2f} ; {b0/o0:5.2f}")
