#!/usr/bin/env python3
# Tables of a collectives run: vsym-bench next to Open MPI (mpi-coll) per size, the fraction of
# the memory-bandwidth bound (bytes a rank must move, 2(n-1)/n x S, at the memcpy speed of the
# same run: of one memcpy alone, and where memcpy_loaded*.jsonl exist also of a memcpy while
# every other core copies too (memcpy-bench --loaded; older runs: one file per core, the mean)), and the fused modes against the unfused
# baseline. Usage: summarize.py RUN_FOLDER (with files *_rN.jsonl of interleaved launches, each
# program's best launch per size)
import json,os,sys
R=sys.argv[1]
def load(f):
    # FILE, or FILE_r1.. FILE_rN (interleaved launches): the best launch per record
    d={}
    base=f[:-len('.jsonl')]
    files=[f] if os.path.exists(f) else sorted(x for x in (f'{base}_r{k}.jsonl' for k in range(1,100)) if os.path.exists(x))
    for fn in files:
        for l in open(fn):
            r=json.loads(l)
            t = r['time_us'] if 'time_us' in r else r['lat_us']['avg']
            key=(r['suite'],r['op'],r['mode'],r['size'])
            if key not in d or t<d[key][0]: d[key]=(t,r)
    return d
def exists(f):
    return os.path.exists(f) or os.path.exists(f[:-len('.jsonl')]+'_r1.jsonl')
mc=load(f'{R}/memcpy.jsonl')
def memcpy_bw(size, recs=None):
    # GB/s of memcpy at the nearest measured size
    best=None
    for (s,o,m,k),(t,r) in (mc if recs is None else recs).items():
        if o!='memcpy': continue
        if best is None or abs(k-size)<abs(best[0]-size): best=(k,r['bw_gbs']['avg'])
    return best[1]
loaded=[load(os.path.join(R,f)) for f in sorted(os.listdir(R)) if f.startswith('memcpy_loaded') and f.endswith('.jsonl')]
def memcpy_loaded_bw(size):
    return sum(memcpy_bw(size, recs) for recs in loaded)/len(loaded)
for np in [n for n in (2,4,8,16) if exists(f"{R}/mpi_np{n}.jsonl")]:
    m=load(f'{R}/mpi_np{np}.jsonl')
    for s in ('allreduce','allgather','reduce-scatter','broadcast','alltoall'):
        if not exists(f'{R}/vsym_{s}_np{np}.jsonl'): continue  # a run of fewer suites
        v=load(f'{R}/vsym_{s}_np{np}.jsonl')
        modes=['out-of-place','in-place'] + (['out-of-place-symmetric'] if s=='allreduce' else [])
        print(f'## {s}, {np} ranks: size | MPI us | vsym us ({", ".join(modes)}) | MPI/vsym' + (' | bound fraction (sym)' + (', loaded' if loaded else '') if s=='allreduce' else ''))
        for k in sorted(set(x[3] for x in v)):
            # (mpi-coll's broadcast records say in-place from stop 52: MPI_Bcast's one buffer)
            mp=m.get((s,s,'out-of-place',k)) or m.get((s,s,'in-place',k))
            if not mp: continue
            vs=[v.get((s,s,md,k),(0,))[0] for md in modes]
            line='  %9d | %9.2f | '%(k,mp[0]) + ' '.join('%9.2f'%x for x in vs) + ' | ' + ' '.join('%5.2fx'%(mp[0]/x) for x in vs if x)
            if s=='allreduce':
                moved=2*(np-1)/np*k
                bound_us=moved/ (memcpy_bw(moved)*1e3)
                line+=' | %.2f'%(bound_us/vs[-1])
                if loaded: line+=' %.2f'%(moved/(memcpy_loaded_bw(moved)*1e3)/vs[-1])
            print(line)
if not os.path.exists(f'{R}/mpi_fused_np4.jsonl'): sys.exit(0)  # no fused runs in this folder
m={}
for l in open(f'{R}/mpi_fused_np4.jsonl'):
    r=json.loads(l); m[(r['op'],r['size'])]=r['lat_us']['avg']
for np in (4,2):
  for dt in ('f32','bf16'):
    v={}
    if not os.path.exists(f'{R}/vsym_fused_{dt}_np{np}.jsonl'): continue  # not run at this size
    for l in open(f'{R}/vsym_fused_{dt}_np{np}.jsonl'):
        r=json.loads(l); tp=r['topology']
        v[(tp['local_tp'],r['op'],r['mode'],r['size'])]=(r['time_us'], r.get('selected'))
    for key in sorted(set((k[0],k[1]) for k in v)):
        ltp,op=key
        print(f'## {op} {dt} ranks {np} local_tp {ltp} local_dp {np//ltp}: size | baseline oneshot twoshot auto(selected) | best/base auto/base' + (' | MPI unfused, MPI/auto' if np==4 and dt=='f32' and ltp==2 else ''))
        for s in sorted(set(k[3] for k in v if (k[0],k[1])==key)):
            g=lambda md: v.get((ltp,op,md,s),(0,None))
            b=g('baseline')[0]; o=g('oneshot')[0]; t=g('twoshot')[0]; a,sel=g('auto')
            best=min(x for x in (o,t) if x)
            line='  %9d | %8.2f %8.2f %8.2f %8.2f(%s) | %5.2fx %5.2fx'%(s,b,o,t,a,sel,b/best if b else 0,b/a if b else 0)
            if np==4 and dt=='f32' and ltp==2 and (op,s) in m: line+=' | %8.2f %5.2fx'%(m[(op,s)], m[(op,s)]/a)
            print(line)
