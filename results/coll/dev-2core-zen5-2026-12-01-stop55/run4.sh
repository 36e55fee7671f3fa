#!/bin/bash
# after the rule changes (AMD's own rules for reading symmetric buffers in place; the fused
# all-reduce + all-gather in place from 1 MiB): runs 1-3's sizes, the library's paths only
cd /work/main; D=results/coll/dev-2core-zen5-2026-12-01-stop55
for round in ${ROUNDS:-1 2 3 4}; do
  for np in 2 4; do
    launch/vsym-run -n $np -- build/benches/vsym-bench allreduce -b 4K -e 4M -f 4 --touch --consume --json $D/runs/r4_${np}_new_${round}.jsonl > /dev/null 2>&1
    for suite in allgather reduce-scatter alltoall broadcast; do
      launch/vsym-run -n $np -- build/benches/vsym-bench $suite -b 4K -e 4M -f 8 --touch --consume --json $D/runs/r5_${np}_${suite}_new_${round}.jsonl > /dev/null 2>&1
    done
  done
  for op in allreduce_allgather reducescatter_allreduce; do
    launch/vsym-run -n 4 -- build/benches/vsym-bench fused --op $op -b 1K -e 1M -f 4 --dtype f16 --touch --consume -n 200 --json $D/runs/r6_${op}_new_${round}.jsonl > /dev/null 2>&1
  done
done
echo done
