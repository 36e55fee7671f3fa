#!/bin/bash
# Runs 1-3 (stop 68): the fused pairs on 4 ranks (TP 2 x DP 2), every mode next to the baseline,
# six launches each, main's build at 0c209b6. OUT: where the records go.
OUT=${OUT:-/tmp/s68}; cd "$(dirname "$0")/../../.."; mkdir -p "$OUT"
B=build/benches/vsym-bench
for i in 1 2 3 4 5 6; do
  launch/vsym-run -n 4 -- $B fused --op allreduce_allgather --dtype f32 -b 4K -e 128K --json $OUT/arag$i.jsonl
done
for i in 1 2 3 4 5 6; do
  launch/vsym-run -n 4 -- $B fused --op allreduce_allgather --dtype f16 -b 8K -e 256K --json $OUT/h$i.jsonl
done
for i in 1 2 3 4 5 6; do
  launch/vsym-run -n 4 -- $B fused --op reducescatter_allreduce --dtype f32 -b 1K -e 32K --json $OUT/r$i.jsonl
  launch/vsym-run -n 4 -- $B fused --op reducescatter_allreduce --dtype f16 -b 1K -e 32K --json $OUT/rh$i.jsonl
done
