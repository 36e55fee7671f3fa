# Tables of run.sh: run in the extracted pcopy/ folder (tar xzf pcopy.tgz; cd pcopy; python3 ../tables.py).
import json,glob,collections,sys,statistics as st
d=collections.defaultdict(list)
for f in glob.glob('*.jsonl'):
    kind,np,r=f[:-6].split('_')
    for l in open(f):
        try: j=json.loads(l)
        except: continue
        if j.get('mode')!='out-of-place': continue
        v=j['lat_us']['avg'] if 'lat_us' in j else j['time_us']
        d[(kind,int(np[2:]),j['size'])].append(v)
print("all-to-all, ordinary buffers, out of place; average time per launch (us; vsym: time_us of the slowest rank as nccl-tests, Open MPI: avg), one column per round")
print("%4s %9s | %-17s | %-17s | %-17s | %s" % ("np","size","process-copy","scratch","Open MPI","MPI/pcopy  scratch/pcopy (best of rounds)"))
for np in sorted(set(k[1] for k in d)):
    for s in sorted(set(k[2] for k in d if k[1]==np)):
        p=d[('pcopy',np,s)]; c=d[('scratch',np,s)]; m=d[('mpi',np,s)]
        f=lambda x:" ".join("%8.1f"%v for v in x)
        print("%4d %9d | %s | %s | %s | %.2f  %.2f" % (np,s,f(p),f(c),f(m),min(m)/min(p),min(c)/min(p)))
