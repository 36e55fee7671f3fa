#!/bin/bash
# usage: ab4.sh OUT SECONDS ; rounds of every suite with VSYM_PUBLISH_STREAM off/auto, rtt before+after
out=$1; end=$(( $(date +%s) + $2 )); i=0
cd /work/main
while [ $(date +%s) -lt $end ]; do
  i=$((i+1))
  for s in allreduce allgather reduce-scatter broadcast alltoall; do
    for v in off auto; do
      a=$(/tmp/rtt)
      VSYM_PUBLISH_STREAM=$v timeout 200 launch/vsym-run -n 4 -- build/benches/vsym-bench $s -b 8K -e 8M -f 4 --json $out/tmp.jsonl >/dev/null 2>&1
      b=$(/tmp/rtt)
      mv $out/tmp.jsonl $out/${s}_${v}_r${i}_${a}_${b}.jsonl 2>/dev/null
    done
  done
done
