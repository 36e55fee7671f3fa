#!/bin/bash
# after the change (reduce-scatter + all-reduce of f32: one exchange to 16 KiB of input on AMD
# where ranks share cores): run 6's f32 launches, AUTO (the rule, no table) against the baseline
cd /work/main; D=results/coll/dev-2core-zen5-2026-12-02-stop56
for round in ${ROUNDS:-1 2 3 4 5 6}; do
  launch/vsym-run -n 4 -- build/benches/vsym-bench fused --op reducescatter_allreduce -b 4K -e 64K -f 2 --dtype f32 --json $D/runs/r7_f32_plain_${round}.jsonl > /dev/null 2>&1
  launch/vsym-run -n 4 -- build/benches/vsym-bench fused --op reducescatter_allreduce -b 4K -e 64K -f 2 --dtype f32 --touch --consume --json $D/runs/r7_f32_touch_${round}.jsonl > /dev/null 2>&1
done
echo done
