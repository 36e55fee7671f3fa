# Table of run_s47d.sh records (FPROF lines): python3 fprof_table.py DIR
import re,glob,statistics as st,sys
d={}
for f in sorted(glob.glob(sys.argv[1]+'/fu.*.txt')):
    m=re.search(r'fu\.np(\d+)r\d\.(\w+)\.s(\d+)\.txt',f); np,op,sz=m.groups()
    for l in open(f):
        if not l.startswith('FPROF'): continue
        mode=re.search(r'mode (\w+):',l).group(1)
        for name,cnt,ns in re.findall(r' (\w+) (\d+) x ([\d.]+) ns;',l):
            d.setdefault((int(np),op[:6],int(sz),mode,name),[]).append(float(ns))
keys=sorted(set(k[:4] for k in d))
for k in keys:
    if k[3] not in ('oneshot','baseline'): continue
    items=[(n,st.median(d[k+(n,)])) for n in ('fused','pre','run_oneshot','ll_begin','ll_publish','ll_fetch','reduce','ll_end','allreduce','allgather','reduce_scatter') if k+(n,) in d]
    print(k, " ".join("%s %.0f"%(n,v) for n,v in items))
