import json, glob, statistics as S, collections, sys
pat = sys.argv[1] if len(sys.argv) > 1 else 'runs/r2_*.jsonl'
D = collections.defaultdict(list)
for f in glob.glob(pat):
    parts = f.split('/')[-1].split('_')  # r2 v np way round
    prog, np, way = parts[1], int(parts[2]), parts[3]
    for l in open(f):
        r = json.loads(l)
        if r.get('suite') != 'allreduce': continue
        D[(np, way, prog, r['mode'], r['size'])].append(r['time_us'] if 'time_us' in r else r['lat_us']['avg'])
for np in (2, 4):
    print(f"# allreduce {np} ranks f32: medians of launches (us); vsym / Open MPI (time); touch | touch+consume")
    print(f"{'size':>9} {'mode':<24} {'vsym':>9} {'mpi':>9} {'v/m':>5} | {'vsym':>9} {'mpi':>9} {'v/m':>5}  {'vc/vt':>5}")
    sizes = sorted({k[4] for k in D if k[0]==np})
    for mode in ('out-of-place','in-place','out-of-place-symmetric','in-place-symmetric'):
        mm = 'in-place' if mode.startswith('in-place') else 'out-of-place'
        for s in sizes:
            row = f"{s:>9} {mode:<24}"
            vals = {}
            for way in ('touch','consume'):
                v = D.get((np,way,'v',mode,s)); m = D.get((np,way,'m',mm,s))
                if not v or not m: row += " " * 27; continue
                v = S.median(v); m = S.median(m); vals[way] = v
                row += f" {v:9.2f} {m:9.2f} {v/m:5.2f} |"
            if len(vals)==2: row += f" {vals['consume']/vals['touch']:5.2f}"
            print(row)
