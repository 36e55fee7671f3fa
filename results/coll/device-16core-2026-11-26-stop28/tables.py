#!/usr/bin/env python3
"""Medians over the rounds of the broadcast A/B (run.sh): us per call, out of place / in place, for
the low-latency limit of this stop (files ll4k_*), the limit before (ll256_*, VSYM_COLL_LL_MAX=256)
and Open MPI (mpi_*, one mode), then the ratios. Ordinary buffers (each vsym file's first table).
    tables.py DIR NPS      e.g. tables.py bcast 4,8,16 (bcast.tgz unpacked) or host2core 3,4"""
import collections
import statistics as st
import sys


def vsym_rows(path):
    rows, table = {}, 0
    for line in open(path):
        if line.startswith("# broadcast"):
            table += 1
            continue
        f = line.split()
        if table == 1 and len(f) >= 10 and f[0].isdigit():
            rows[int(f[0])] = (float(f[2]), float(f[6]))
    return rows


def mpi_rows(path):
    rows = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 4 and f[0].isdigit():
            rows[int(f[0])] = (float(f[1]), float(f[1]))
    return rows


def main():
    d, nps = sys.argv[1], [int(x) for x in sys.argv[2].split(",")]
    for np in nps:
        res = collections.defaultdict(lambda: collections.defaultdict(list))
        for r in (1, 2, 3):
            for kind in ("ll4k", "ll256"):
                for size, v in vsym_rows(f"{d}/{kind}_np{np}_r{r}.txt").items():
                    res[kind][size].append(v)
            for size, v in mpi_rows(f"{d}/mpi_np{np}_r{r}.txt").items():
                res["mpi"][size].append(v)
        print(f"{np} ranks: us per call (out of place/in place): new | 256 B limit | Open MPI;"
              " before/new; Open MPI/new")
        for size in sorted(res["ll4k"]):
            m = {k: [st.median(x[i] for x in res[k][size]) for i in (0, 1)]
                 for k in ("ll4k", "ll256", "mpi")}
            n, o, p = m["ll4k"], m["ll256"], m["mpi"]
            print(f"{size:6d} {n[0]:6.2f}/{n[1]:6.2f} | {o[0]:6.2f}/{o[1]:6.2f} | {p[0]:6.2f}"
                  f" ; {o[0] / n[0]:.2f} {o[1] / n[1]:.2f} ; {p[0] / n[0]:.2f} {p[1] / n[1]:.2f}")


main()
