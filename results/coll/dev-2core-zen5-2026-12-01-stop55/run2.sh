#!/bin/bash
# the block collectives on symmetric buffers, --touch --consume: the library's paths (on AMD read
# in place at any size) or through the scratch (VSYM_COLL_ZEROCOPY_MIN=1G), 2 and 4 ranks, taking turns
cd /work/main; D=results/coll/dev-2core-zen5-2026-12-01-stop55
for round in ${ROUNDS:-1 2 3}; do
  for np in 2 4; do
    for suite in allgather reduce-scatter alltoall broadcast; do
      for way in def zc0; do
        env=""; [ $way = zc0 ] && env="VSYM_COLL_ZEROCOPY_MIN=1G"
        env $env launch/vsym-run -n $np -- build/benches/vsym-bench $suite -b 4K -e 4M -f 8 --touch --consume --json $D/runs/r2_${np}_${suite}_${way}_${round}.jsonl > /dev/null 2>&1
      done
    done
  done
done
echo done
