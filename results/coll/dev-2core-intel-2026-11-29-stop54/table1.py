import json, glob, statistics as S, collections, sys
pat = sys.argv[1] if len(sys.argv) > 1 else 'runs/r1_*.jsonl'
D = collections.defaultdict(list)
for f in glob.glob(pat):
    way = 'consume' if '_consume_' in f else 'touch'
    for l in open(f):
        r = json.loads(l)
        if r.get('suite') != 'fused': continue
        t = r['topology']
        if (t['local_tp'], t['local_dp']) != (2, 2): continue
        D[(r['op'], r['buffers'], way, r['size'], r['mode'])].append(r['time_us'])
ops = sorted({k[0] for k in D}); 
for op in ops:
  for buf in ('ordinary', 'symmetric'):
    print(f"# {op} 2x2 f16 {buf}: medians (us) of launches; base/auto, base/best-fused; touch | touch+consume")
    sizes = sorted({k[3] for k in D if k[0]==op and k[1]==buf})
    for s in sizes:
        line = f"{s:>8}"
        for way in ('touch', 'consume'):
            m = {mode: S.median(D[(op,buf,way,s,mode)]) for mode in ('baseline','oneshot','twoshot','auto') if D.get((op,buf,way,s,mode))}
            best = min(m[x] for x in ('oneshot','twoshot') if x in m)
            line += f" | base {m['baseline']:7.2f} one {m['oneshot']:7.2f} two {m['twoshot']:7.2f} auto {m['auto']:7.2f} b/a {m['baseline']/m['auto']:.2f} b/best {m['baseline']/best:.2f} n={len(D[(op,buf,way,s,'auto')])}"
        print(line)
