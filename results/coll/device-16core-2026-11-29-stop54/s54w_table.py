import json, glob, statistics as S, collections, sys
# run_s54w.sh rounds: the fused pairs at 16 ranks, f16, --touch --consume: the baseline's time
# over AUTO's (the rule) and over each mode's, medians of the rounds; AUTO's mode
F = collections.defaultdict(list); SEL = {}
for d in sys.argv[1:]:
    for f in glob.glob(d + '/fused.*.jsonl'):
        for l in open(f):
            r = json.loads(l); t = r['topology']
            tp, dp = t['local_tp'] * t['inter_tp'], t['local_dp'] * t['inter_dp']
            if tp < 2 or dp < 2: continue
            k = (r['op'], f"{tp}x{dp}", r['buffers'], r['size'])
            F[k + (r['mode'],)].append(r['time_us'])
            if r['mode'] == 'auto': SEL[k] = r.get('selected')
for key in sorted({k[:3] for k in F}):
    cells = []
    for s in sorted({k[3] for k in F if k[:3] == key}):
        g = lambda m: S.median(F[key + (s, m)]) if F.get(key + (s, m)) else float('nan')
        b = g('baseline')
        cells.append(f"{s // 1024}K auto {b / g('auto'):.2f} {SEL.get(key + (s,), '')} (one {b / g('oneshot'):.2f} two {b / g('twoshot'):.2f})")
    print(f"{key[0]} 16 ranks {key[1]} {key[2]}: " + " | ".join(cells))
