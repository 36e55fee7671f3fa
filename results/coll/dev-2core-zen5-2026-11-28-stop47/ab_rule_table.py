# Table of ab_rule.sh records: python3 ab_rule_table.py DIR (medians per build, op, buffers, size).
import json,glob,statistics as st,sys,os
d={}
for f in glob.glob(sys.argv[1]+'/*.jsonl'):
    b=os.path.basename(f).split('_')[0]
    for l in open(f):
        j=json.loads(l)
        if 'time_us' not in j: continue
        d.setdefault((b,j['op'],j['buffers'],j['size'],j['mode']),[]).append(j['time_us'])
keys=sorted(set(k[1:4] for k in d))
print("%s: 4 ranks (TP 2 x DP 2), f32, launches a build in turns; medians (us)" % sys.argv[1])
print("op                      buffers     size | new: base   1shot  2shot  auto  b/auto | old: base  auto  b/auto")
for k in keys:
    m={(b,mo):st.median(d[(b,)+k+(mo,)]) for b in ('old','new') for mo in ('baseline','oneshot','twoshot','auto')}
    na=m[('new','auto')]; 
    pick=min(('oneshot','twoshot','baseline'),key=lambda mo: abs(m[('new',mo)]-na))
    print("%-24s %-9s %7d | %7.2f %6.2f %6.2f %6.2f %5.2f | %6.2f %6.2f %5.2f |"%(k[0],k[1],k[2],m[('new','baseline')],m[('new','oneshot')],m[('new','twoshot')],na,m[('new','baseline')]/na,m[('old','baseline')],m[('old','auto')],m[('old','baseline')]/m[('old','auto')]))
