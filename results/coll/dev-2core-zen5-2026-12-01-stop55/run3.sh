#!/bin/bash
# the fused pairs, 4 ranks (2 x 2), f16, --touch --consume: the library's paths (on AMD the two-shot
# modes in place at any size on symmetric buffers) or never in place (VSYM_COLL_ZEROCOPY_MIN=1G), taking turns
cd /work/main; D=results/coll/dev-2core-zen5-2026-12-01-stop55
for round in ${ROUNDS:-1 2 3}; do
  for op in allreduce_allgather reducescatter_allreduce; do
    for way in def zc0; do
      env=""; [ $way = zc0 ] && env="VSYM_COLL_ZEROCOPY_MIN=1G"
      env $env launch/vsym-run -n 4 -- build/benches/vsym-bench fused --op $op -b 1K -e 1M -f 4 --dtype f16 --touch --consume -n 200 --json $D/runs/r3_${op}_${way}_${round}.jsonl > /dev/null 2>&1
    done
  done
done
echo done
