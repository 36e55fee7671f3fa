# usage: ab_pcopy.py RAW: per (ranks, kind, size) medians [min-max] over the rounds of the scratch
# path's time over the process-copy path's (above 1: the copies faster), out of place and in place
import collections, statistics, sys
d = collections.defaultdict(dict)
for l in open(sys.argv[1]):
    i, np, k, v, s, o, p = l.split()
    d[(int(np), k, int(s))].setdefault(i, {})[v] = (float(o), float(p))
def span(x):
    return '%.2f [%.2f-%.2f]' % (statistics.median(x), min(x), max(x))
for key in sorted(d):
    rs = [r for r in d[key].values() if len(r) == 2]
    oop = [r['scratch'][0] / r['pcopy'][0] for r in rs]
    ip = [r['scratch'][1] / r['pcopy'][1] for r in rs]
    med = lambda v, j: statistics.median(r[v][j] for r in rs)
    print('%d ranks %-5s %9d  oop %s (%.0f -> %.0f us)  ip %s (%.0f -> %.0f us)' % (key + (
        span(oop), med('scratch', 0), med('pcopy', 0), span(ip), med('scratch', 1), med('pcopy', 1))))
