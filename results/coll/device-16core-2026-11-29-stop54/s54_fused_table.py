import json, glob, statistics as S, collections, sys, os
d = sys.argv[1]
D = collections.defaultdict(list)
for f in glob.glob(d + '/fused.*.jsonl'):
    b = os.path.basename(f)[:-6].replace('.b','').split('.')
    op, np, way = b[1], int(b[2][2:]), b[3]
    for l in open(f):
        r = json.loads(l); t = r['topology']
        tp = t['local_tp']*t['inter_tp']; dp = t['local_dp']*t['inter_dp']
        if tp < 2 or dp < 2: continue
        D[(op, np, f"{tp}x{dp}", r['buffers'], way, r['size'], r['mode'])].append(r['time_us'])
for key in sorted({k[:4] for k in D}):
    op, np, topo, buf = key
    print(f"# {op} {np} ranks {topo} {buf}: base/mode (speed)  [touch+consume] one two auto || [touch] one two auto")
    for s in sorted({k[5] for k in D if k[:4]==key}):
        row = f"{s:>8}"
        for way in ('tc','t'):
            g = lambda m: S.median(D[key+(way,s,m)]) if D.get(key+(way,s,m)) else float('nan')
            b = g('baseline'); two = g('twoshot') if g('twoshot')==g('twoshot') else g('fewest_bytes')
            row += f"  base {b:8.2f} one {b/g('oneshot'):5.2f} two {b/two:5.2f} auto {b/g('auto'):5.2f} ||"
        print(row)
