import collections,statistics,sys
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    op,k,s,b,o,t,a=l.split(); b,o,t,a=map(float,(b,o,t,a))
    d[(op,k,int(s))].append((b/o,b/t,b/a))
for key in sorted(d):
    v=d[key]; f=lambda i: "%.2f [%.2f-%.2f]"%(statistics.median(x[i] for x in v),min(x[i] for x in v),max(x[i] for x in v))
    print("%-24s %s %7d  one %s  two %s  auto %s  n=%d"%(key[0],key[1],key[2],f(0),f(1),f(2),len(v)))
