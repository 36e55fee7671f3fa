#!/bin/bash
# after the rule changes: the fused pairs (4 ranks, f16) and the all-reduce (2, 4 ranks, f32), --touch --consume
cd /work/main
for round in 1 2 3; do
  for op in allreduce_allgather reducescatter_allreduce; do
    launch/vsym-run -n 4 -- build/benches/vsym-bench fused --op $op -b 1K -e 1M -f 4 --dtype f16 --touch --consume -n 200 --json runs/r6_${op}_consume_0_${round}.jsonl > /dev/null 2>&1
  done
  for np in 2 4; do
    launch/vsym-run -n $np -- build/benches/vsym-bench allreduce -b 4K -e 4M -f 4 --touch --consume --json runs/r6ar_${np}_${round}.jsonl > /dev/null 2>&1
  done
done
echo done
