#!/bin/bash
cd /work/main
for round in 1 2 3; do
  for op in allreduce_allgather reducescatter_allreduce; do
    for cons in tc t; do
      extra="--touch --consume"; [ $cons = t ] && extra="--touch"
      for x in 0 1; do
        XF_PULL=$x launch/vsym-run -n 4 -- build/benches/vsym-bench fused --op $op -b 1K -e 256K -f 4 --dtype f16 $extra -n 200 --json runs/r5_${op}_${cons}_${x}_${round}.jsonl > /dev/null 2>&1
      done
    done
  done
done
echo done
