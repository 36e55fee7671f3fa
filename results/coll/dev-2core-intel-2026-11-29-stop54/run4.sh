#!/bin/bash
# all-reduce 2 and 4 ranks: zero-copy push (XAR_PULL=0), pull out of place (1), pull also in place (2); touch+consume and touch only
cd /work/main
for round in 1 2 3; do
  for np in 2 4; do
    for cons in tc t; do
      extra="--touch --consume"; [ $cons = t ] && extra="--touch"
      for x in 0 1 2; do
        XAR_PULL=$x launch/vsym-run -n $np -- build/benches/vsym-bench allreduce -b 4K -e 1M -f 4 $extra --json runs/r4_${np}_${cons}_${x}_${round}.jsonl > /dev/null 2>&1
      done
    done
  done
done
echo done
