#!/bin/bash
# Stop 37 (run from the repository root, after a build in build/): ab4.sh OUT SECONDS: rounds of
# every collective at 4 ranks with VSYM_PUBLISH_STREAM off and auto taking turns, the round trip
# between the cores before and after each launch in the file name (SUITE_SETTING_rN_BEFORE_AFTER).
. "$(dirname "$0")/rtt_setup.sh"
out=$1; end=$(( $(date +%s) + $2 )); i=0
while [ $(date +%s) -lt $end ]; do
  i=$((i+1))
  for s in allreduce allgather reduce-scatter broadcast alltoall; do
    for v in off auto; do
      timed $out ${s}_${v}_r$i env VSYM_PUBLISH_STREAM=$v timeout 200 launch/vsym-run -n 4 -- \
        build/benches/vsym-bench $s -b 8K -e 8M -f 4 --json $out/tmp.jsonl
    done
  done
done
