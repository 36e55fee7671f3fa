import json,glob,os,statistics as st,collections,sys
new=sys.argv[1] if len(sys.argv)>1 else 'new2'
D=collections.defaultdict(list); W=0
for f in glob.glob('*.jsonl'):
    k=f.split('_')[0]
    for l in open(f):
        r=json.loads(l)
        if 'symmetric' in r['mode']: continue
        t=r['lat_us']['avg'] if k=='mpi' else r['time_us']
        if k!='mpi': W+=r.get('wrong') or 0
        D[(r['config']['ranks'],r['mode'],r['size'],k)].append(t)
print('#wrong in every vsym record:',W)
for np_ in (2,4):
  for mode in ('out-of-place','in-place'):
    print(np_,'ranks',mode)
    for z in sorted(set(k[2] for k in D if k[0]==np_ and k[1]==mode)):
        o=D[(np_,mode,z,'old')]; n=D[(np_,mode,z,new)]; m=D.get((np_,mode,z,'mpi'))
        print('  %9d before %s after %s before/after %.2f %s'%(z,' '.join('%7.1f'%x for x in o),' '.join('%7.1f'%x for x in n),st.median(o)/st.median(n), ('mpi/after %.2f'%(st.median(m)/st.median(n))) if m else ''))
