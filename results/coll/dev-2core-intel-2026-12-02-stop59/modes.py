# usage: modes.py RAW... : per (op, dtype, kind, size) medians [min-max] of the baseline's time
# over the one-shot's, the two-shot's and AUTO's (over 1: the mode faster), and which mode is fastest
import collections, statistics, sys
d = collections.defaultdict(list)
for fn in sys.argv[1:]:
    for l in open(fn):
        op, dt, k, s, b, o, t, a = l.split()
        b, o, t, a = map(float, (b, o, t, a))
        d[(op, dt, k, int(s))].append((b / o, b / t, b / a))
for key in sorted(d):
    v = d[key]
    med = [statistics.median(x[i] for x in v) for i in range(3)]
    f = lambda i: "%.2f [%.2f-%.2f]" % (med[i], min(x[i] for x in v), max(x[i] for x in v))
    best = max([("base", 1.0), ("one", med[0]), ("two", med[1])], key=lambda p: p[1])[0]
    print("%-24s %s %s %7d  one %s  two %s  auto %s  best %s n=%d" % (key + (f(0), f(1), f(2), best, len(v))))
