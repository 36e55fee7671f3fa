#!/bin/bash
# all-reduce, 2 and 4 ranks, input rewritten and output read: zero-copy on symmetric buffers from 4K (default) or off, taking turns
cd /work/main
for round in 1 2 3; do
  for np in 2 4; do
    for way in def zc0; do
      env=""; [ $way = zc0 ] && env="VSYM_COLL_ZEROCOPY_MIN=1G"
      env $env launch/vsym-run -n $np -- build/benches/vsym-bench allreduce -b 4K -e 1M -f 4 --touch --consume --json runs/r3_${np}_${way}_${round}.jsonl > runs/r3_${np}_${way}_${round}.txt 2>&1
    done
  done
done
echo done
