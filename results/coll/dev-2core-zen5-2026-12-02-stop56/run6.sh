#!/bin/bash
# the fused reduce-scatter + all-reduce on 4 ranks (2 x 2) sharing the 2 cores, 4-64 KiB of input
# by 2: one exchange (the rule's mode to 32 KiB on AMD where ranks share cores) against the
# baseline, f32 and f16, input unchanged and rewritten before each call with the output read
cd /work/main; D=results/coll/dev-2core-zen5-2026-12-02-stop56
for round in ${ROUNDS:-1 2 3 4 5 6 7 8}; do
  for dt in f32 f16; do
    launch/vsym-run -n 4 -- build/benches/vsym-bench fused --op reducescatter_allreduce -b 4K -e 64K -f 2 --dtype $dt --json $D/runs/r6_${dt}_plain_${round}.jsonl > /dev/null 2>&1
    launch/vsym-run -n 4 -- build/benches/vsym-bench fused --op reducescatter_allreduce -b 4K -e 64K -f 2 --dtype $dt --touch --consume --json $D/runs/r6_${dt}_touch_${round}.jsonl > /dev/null 2>&1
  done
done
echo done
