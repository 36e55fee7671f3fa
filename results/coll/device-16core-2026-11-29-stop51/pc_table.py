import json,glob,re,collections,statistics,sys
d=collections.defaultdict(dict)
for f in glob.glob(sys.argv[1]+'/*.r*.*.jsonl'):
    m=re.search(r'/(\w+)\.(touch|plain)\.r(\d+)\.(\w+)\.jsonl',f)
    s,t,rnd,v=m.group(1),m.group(2),int(m.group(3)),m.group(4)
    for l in open(f):
        r=json.loads(l)
        if r['mode']!='out-of-place': continue
        tt=r['time_us'] if 'time_us' in r else r['lat_us']['avg']
        d[(s,t,r['size'])].setdefault(v,{})[rnd]=tt
for k in sorted(d):
    x=d[k]; dd=x.get('default',{}); pc=x.get('pcopy',{}); mp=x.get('mpi',{})
    pr=[pc[i]/dd[i] for i in dd if i in pc]
    print('%-10s %-6s %9d default %9.1f pcopy %9.1f mpi %9.1f  pcopy/default med %.2f [%.2f-%.2f] pcopy faster %d/%d  pcopy/mpi %.2f'%(k[0],k[1],k[2],statistics.median(dd.values()),statistics.median(pc.values()),statistics.median(mp.values()) if mp else float('nan'),statistics.median(pr),min(pr),max(pr),sum(p<1 for p in pr),len(pr),statistics.median(pc.values())/statistics.median(mp.values()) if mp else float('nan')))
