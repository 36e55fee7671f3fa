import json,glob,re,collections,statistics,sys
d=collections.defaultdict(dict)
rtt=collections.defaultdict(list)
for f in glob.glob(sys.argv[1]+'/broadcast.r*.*.jsonl'):
    m=re.search(r'r(\d+)\.(\w+)\.jsonl',f); rnd,v=int(m.group(1)),m.group(2)
    for l in open(f):
        r=json.loads(l)
        t=r['time_us'] if 'time_us' in r else r['lat_us']['avg']
        d[(r['mode'],r['size'],rnd)][v]=t
        if r.get('core_rtt_ns'): rtt[v].append(r['core_rtt_ns'])
rows=collections.defaultdict(lambda: collections.defaultdict(list))
for (mode,s,rnd),x in d.items():
    for v,t in x.items(): rows[(mode,s)][v].append((rnd,t))
for (mode,s) in sorted(rows):
    x=rows[(mode,s)]
    if 'old' not in x or 'new' not in x: continue
    o=dict(x['old']); n=dict(x['new']); mp=dict(x.get('mpi',[]))
    pr=[o[k]/n[k] for k in o if k in n]
    line='%-22s %4d old %.3f new %.3f old/new med %.2f range %.2f-%.2f new faster %d/%d'%(mode,s,statistics.median(o.values()),statistics.median(n.values()),statistics.median(pr),min(pr),max(pr),sum(p>1 for p in pr),len(pr))
    if mp: line+='  mpi %.3f mpi/new %.2f'%(statistics.median(mp.values()), statistics.median(mp.values())/statistics.median(n.values()))
    print(line)
for v,x in rtt.items(): print('# core_rtt_ns', v, min(x), max(x), statistics.median(x))
