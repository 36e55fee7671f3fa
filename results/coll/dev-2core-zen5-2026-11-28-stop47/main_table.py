# Table of plain vsym-bench fused records: python3 main_table.py "DIR/*.jsonl" (baseline / mode).
import json,glob,statistics as st,sys
pat=sys.argv[1] if len(sys.argv)>1 else '/tmp/fh_*.jsonl'
d={}
for f in glob.glob(pat):
    for l in open(f):
        j=json.loads(l)
        if 'time_us' not in j: continue
        d.setdefault((j['op'],j['buffers'],j['size'],j['mode']),[]).append(j['time_us'])
keys=sorted(set(k[:3] for k in d))
print("op buffers size: median us baseline oneshot twoshot auto | base/1s base/2s base/auto  (n)")
for k in keys:
    m={mo:st.median(d[k+(mo,)]) for mo in ('baseline','oneshot','twoshot','auto') if k+(mo,) in d}
    print("%-24s %-9s %7d  %8.2f %8.2f %8.2f %8.2f | %5.2f %5.2f %5.2f (%d)"%(k[0],k[1],k[2],m['baseline'],m['oneshot'],m['twoshot'],m['auto'],m['baseline']/m['oneshot'],m['baseline']/m['twoshot'],m['baseline']/m['auto'],len(d[k+('auto',)])))
