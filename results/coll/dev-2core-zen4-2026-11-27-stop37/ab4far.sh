#!/bin/bash
# Stop 37 (from the repository root): ab4far.sh OUT SECONDS: when the cores are far (rtt > 250 ns),
# one launch of off and auto (order alternating) of the next suite; rtt before and after each launch
# in the file name.
here=$(cd "$(dirname "$0")" && pwd)
# rtt: a cache line's round trip (ns) between two threads pinned to CPUs 0 and 1 (rtt.c)
rtt=build/rtt-stop37
[ -x $rtt ] || gcc -O2 -pthread -o $rtt "$here/rtt.c"
out=$1; end=$(( $(date +%s) + $2 )); i=0; k=0
suites=(allreduce reduce-scatter alltoall allgather broadcast)
while [ $(date +%s) -lt $end ]; do
  a=$($rtt)
  if [ $a -lt 250 ]; then sleep 2; continue; fi
  s=${suites[$((k % 5))]}; k=$((k+1)); i=$((i+1))
  vs="off auto"; [ $((i % 2)) -eq 0 ] && vs="auto off"
  for v in $vs; do
    a=$($rtt)
    VSYM_PUBLISH_STREAM=$v timeout 200 launch/vsym-run -n 4 -- build/benches/vsym-bench $s -b 8K -e 8M -f 4 --json $out/tmp.jsonl >/dev/null 2>&1
    b=$($rtt)
    mv $out/tmp.jsonl $out/${s}_${v}_r${i}_${a}_${b}.jsonl 2>/dev/null
  done
done
