#!/usr/bin/env python3
"""The shmem_init launches of run_s44.sh and run_s44b.sh: per launch its exit status and how many
PEs took how many mappings as their static symmetric data (OSHMEM's memheap log, level 5).
   memheap_counts.py memheap_s44.txz"""
import collections
import re
import sys
import tarfile

tf = tarfile.open(sys.argv[1])
files = {m.name.lstrip("./"): tf.extractfile(m).read().decode() for m in tf if m.isfile()}
exits = {}
for name, text in files.items():
    if name.endswith("_progress.txt"):
        run = name[: -len("_progress.txt")]
        for line in text.splitlines():
            p = line.split()
            exits[f"{run}_{p[3]}"] = int(p[1])
print("launch (run_build_ranks_try)      exit   PEs x static segments")
for key in sorted(exits, key=lambda k: (k.split("_")[0], int(re.search(r"np(\d+)", k).group(1)),
                                        k.split("_")[2], int(k.rsplit("_t", 1)[1]))):
    text = files.get(key + ".txt", "")
    found = re.findall(r"static memory: \d+ byte\(s\), (\d+) segments", text)
    n = collections.Counter(int(m) for m in found)
    counts = " ".join(f"{v}x{k}" for k, v in sorted(n.items()))
    print(f"{key:34s} {exits[key]:4d}   {counts}")
