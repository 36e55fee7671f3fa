# Table of run_s47f.sh records: python3 table_s47f.py DIR
import json,glob,statistics as st,re,sys
V=['0','256']
d={};wrong=0;nrec=0
for f in glob.glob(sys.argv[1]+'/*.jsonl'):
    m=re.search(r'(ar|fu)\.np(\d+)r(\d)\.?(\w*)\.sr(\d+)\.jsonl',f)
    kind,np,rnd,op,v=m.groups()
    for l in open(f):
        j=json.loads(l)
        if 'time_us' not in j: continue
        nrec+=1; wrong+=max(0,j.get('wrong',0))
        if kind=='ar':
            key=(kind,int(np),j['mode'],j['size'],'')
        else:
            t=j['topology']; key=('fu',int(np),op[:8]+" %dx%d %s"%(t['local_tp'],t['local_dp'],j['buffers'][:3]),j['size'],j['mode'])
            if j['mode'] not in('baseline','oneshot','auto'): continue
        d.setdefault(key,{}).setdefault(v,[]).append(j['time_us'])
print("records %d, #wrong summed %d; medians of the rounds (us); SMALLRED 0 (main) / 256"%(nrec,wrong))
for k in sorted(d):
    m={v:st.median(d[k][v]) for v in V}
    print("%-3s %2d %-22s %5d %-8s sr0 %6.3f sr256 %6.3f  ratio %5.2f"%(*k,m['0'],m['256'],m['0']/m['256']))
