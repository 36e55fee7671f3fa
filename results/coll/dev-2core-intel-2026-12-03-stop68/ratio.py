# usage: python3 ratio.py "GLOB" MODE_A MODE_B (records from records.txz, e.g. "recs/arag*.jsonl")
# per op, dtype, buffer kind and size: min-max and median over launches of time(A) / time(B)
import json,sys,glob,collections
pat,a,b=sys.argv[1:4]
d=collections.defaultdict(dict)
for f in sorted(glob.glob(pat)):
    for l in open(f):
        r=json.loads(l)
        if r.get('suite')!='fused': continue
        kind=r.get('buffers', r.get('config',{}).get('buffers','?'))
        key=(r['op'],r.get('dtype'),kind,r['size'])
        d[key].setdefault(f,{})[r['mode']]=r['time_us']
for key in sorted(d):
    rs=sorted(v[a]/v[b] for v in d[key].values() if a in v and b in v and v[b])
    if rs: print(*key, 'n=%d'%len(rs), '%.2f-%.2f med %.2f'%(rs[0],rs[-1],rs[len(rs)//2]))
