#!/bin/bash
# Stop 37 (from the repository root, after a build in build/): [SUITES=".."] ab3.sh OUT SECONDS:
# rounds of launches taking turns with VSYM_PUBLISH_STREAM off, auto and on, 4 ranks, 32 KiB-8 MiB
# by 4, each suite of SUITES (default: the all-reduce); every record carries core_rtt_ns (the
# round trip between two threads of rank 0 on CPUs 0 and 1, before each size): ab3_table.py.
out=$1; end=$(( $(date +%s) + $2 )); i=0
while [ $(date +%s) -lt $end ]; do
  i=$((i+1))
  for s in ${SUITES:-allreduce}; do
    for v in off auto on; do
      VSYM_PUBLISH_STREAM=$v timeout 200 launch/vsym-run -n 4 -- build/benches/vsym-bench $s \
        -b 32K -e 8M -f 4 --json $out/${s}_${v}_r$i.jsonl > /dev/null 2>&1
    done
  done
done
