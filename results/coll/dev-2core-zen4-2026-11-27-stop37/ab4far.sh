#!/bin/bash
# Stop 37 (from the repository root): ab4far.sh OUT SECONDS: when the cores are far (rtt > 250 ns),
# one launch of off and auto (order alternating) of the next suite; rtt before and after each launch
# in the file name.
. "$(dirname "$0")/rtt_setup.sh"
out=$1; end=$(( $(date +%s) + $2 )); i=0; k=0
suites=(allreduce reduce-scatter alltoall allgather broadcast)
while [ $(date +%s) -lt $end ]; do
  if [ $($rtt) -lt 250 ]; then sleep 2; continue; fi
  s=${suites[$((k % 5))]}; k=$((k+1)); i=$((i+1))
  vs="off auto"; [ $((i % 2)) -eq 0 ] && vs="auto off"
  for v in $vs; do
    timed $out ${s}_${v}_r$i env VSYM_PUBLISH_STREAM=$v timeout 200 launch/vsym-run -n 4 -- \
      build/benches/vsym-bench $s -b 8K -e 8M -f 4 --json $out/tmp.jsonl
  done
done
