#!/bin/bash
# all-reduce, 2 and 4 ranks, f32, input rewritten and output read: the library's paths (on AMD
# symmetric buffers in place from 4 KiB) or through the scratch (VSYM_COLL_ZEROCOPY_MIN=1G), taking turns
cd /work/main; D=results/coll/dev-2core-zen5-2026-12-01-stop55
for round in ${ROUNDS:-1 2 3}; do
  for np in 2 4; do
    for way in def zc0; do
      env=""; [ $way = zc0 ] && env="VSYM_COLL_ZEROCOPY_MIN=1G"
      env $env launch/vsym-run -n $np -- build/benches/vsym-bench allreduce -b 4K -e 4M -f 4 --touch --consume --json $D/runs/r1_${np}_${way}_${round}.jsonl > /dev/null 2>&1
    done
  done
done
echo done
