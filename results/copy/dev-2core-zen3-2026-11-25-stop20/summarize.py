import json,glob,collections,statistics,sys,re
R=sys.argv[1]
rows=collections.defaultdict(list)
for f in sorted(glob.glob(R+'/copy_*_r*.jsonl')):
    m=re.search(r'copy_(\w+?)_np(\d+)_r(\d+)',f); p,np_,r=m.group(1),int(m.group(2)),int(m.group(3))
    for l in open(f):
        x=json.loads(l)
        rows[(p,np_,x['size'])].append((r,x))
print('pattern ranks task-size | copy/put alone (launches; median) | copy/put_all (launches; median) | copy GB/s per rank | iterations=delta | #wrong')
for k in sorted(rows, key=lambda k:(k[1],k[0],k[2])):
    v=sorted(rows[k], key=lambda t:t[0]); xs=[t[1] for t in v]
    a=[x.get('copy_over_put') for x in xs]; b=[x.get('copy_over_put_all') for x in xs]
    g=[x['copy']['bw_per_rank_gbs'] for x in xs]
    it=' '.join(f"{x.get('schedule_iterations')}={x.get('delta')}" for x in xs)
    w=sum(x.get('wrong',0) or 0 for x in xs)
    f2=lambda L:' '.join('-' if y is None else f'{y:.2f}' for y in L)
    med=lambda L:statistics.median([y for y in L if y is not None])
    s=k[2]; sz=f'{s>>20}M'
    print(f'{k[0]:9} {k[1]} {sz:>4} | {f2(a)}; {med(a):.2f} | {f2(b)}; {med(b):.2f} | {" ".join(f"{y:.1f}" for y in g)} | {it} | {w}')
