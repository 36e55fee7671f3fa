#!/usr/bin/env python3
"""The table of run_s62.sh's records (copy_s62.tgz): per ranks, pattern and size, the copy
service's per-rank bandwidth for the new build (e97e4f0) and the old (5463240), the lone put and
every rank putting at once measured in the same launch, their ratios, whether the new build's
copies streamed, and new/old, round 1 / round 2. Usage: s62_table.py [copy_s62.tgz]"""
import collections, io, json, os, sys, tarfile

path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "copy_s62.tgz")
rows = collections.defaultdict(list)
with tarfile.open(path) as t:
    for m in sorted(t.getmembers(), key=lambda m: m.name):
        name = os.path.basename(m.name)
        if not (name.startswith("r") and name.endswith(".jsonl")):
            continue
        _, np_, pat, build = name[:-6].split("_")
        for line in io.TextIOWrapper(t.extractfile(m)):
            r = json.loads(line)
            rows[(int(np_[2:]), pat, r["size"], build)].append(
                (r["copy"]["bw_per_rank_gbs"], r["put_single_peer_gbs"], r["put_all_gbs"],
                 r.get("streaming"), r["busiest_rank_bytes"]))


def f(v, d=1):
    return "/".join(f"{x:.{d}f}" for x in v)


print("# GB/s per rank; each cell: round 1/round 2; c/put: copy over the lone put, c/all: over every"
      "\n# rank putting at once; str: the new build's copies streamed; new/old: copy's bandwidth")
print(f"{'np':>3} {'pattern':>8} {'MiB':>4} | {'new':>9} {'put':>9} {'c/put':>9} {'c/all':>9} "
      f"{'str':>5} | {'old':>9} {'put':>9} {'c/put':>9} {'c/all':>9} | {'new/old':>9}")
for k in sorted({key[:3] for key in rows}):
    n, o = rows[k + ("new",)], rows[k + ("old",)]
    print(f"{k[0]:>3} {k[1]:>8} {k[2] >> 20:>4} | {f([x[0] for x in n]):>9} "
          f"{f([x[1] for x in n]):>9} {f([x[0] / x[1] for x in n], 2):>9} "
          f"{f([x[0] / x[2] for x in n], 2):>9} {str(n[0][3]):>5} | {f([x[0] for x in o]):>9} "
          f"{f([x[1] for x in o]):>9} {f([x[0] / x[1] for x in o], 2):>9} "
          f"{f([x[0] / x[2] for x in o], 2):>9} | {f([a[0] / b[0] for a, b in zip(n, o)], 2):>9}")
