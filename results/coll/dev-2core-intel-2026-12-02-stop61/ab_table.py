import collections,statistics,sys
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    op,k,ab,sz,o,i=l.split(); d[(op,k,sz,ab)].append((float(o),float(i)))
keys=sorted(set(k[:3] for k in d))
for k in keys:
    a=d[k+('0',)]; b=d[k+('1',)]
    mo=lambda x,j: statistics.median([t[j] for t in x])
    print("%-15s %s %9s  oop %8.0f -> %8.0f (%.2f)  ip %8.0f -> %8.0f (%.2f)   oop rounds A %s B %s"%(k[0],k[1],k[2],mo(a,0),mo(b,0),mo(a,0)/mo(b,0),mo(a,1),mo(b,1),mo(a,1)/mo(b,1), [int(t[0]) for t in a],[int(t[0]) for t in b]))
