#!/bin/bash
# rounds of the fused pairs at 4 ranks, f16, input rewritten, output read or not, taking turns
cd /work/main
for round in 1 2 3 4; do
  for op in allreduce_allgather reducescatter_allreduce; do
    for way in touch consume; do
      extra="--touch"; [ $way = consume ] && extra="--touch --consume"
      launch/vsym-run -n 4 -- build/benches/vsym-bench fused --op $op -b 1K -e 256K -f 4 --dtype f16 $extra -n 200 --json runs/r1_${op}_${way}_${round}.jsonl > runs/r1_${op}_${way}_${round}.txt 2>&1
    done
  done
done
echo done
