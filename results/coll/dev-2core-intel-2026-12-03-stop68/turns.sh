#!/bin/bash
# Run 4 (stop 68): builds taking turns, /tmp/s68/bench-old (main at 0c209b6) and
# /tmp/s68/bench-new (this stop's rule; vsym-bench links the library statically), f32, 4 ranks
cd "$(dirname "$0")/../../.."  # the repository root
for i in 1 2 3 4; do
  for b in old new; do
    launch/vsym-run -n 4 -- /tmp/s68/bench-$b fused --op allreduce_allgather --dtype f32 -b 4K -e 128K --touch --consume --json /tmp/s68/t_arag_tc_${b}_$i.jsonl > /tmp/s68/t_arag_tc_${b}_$i.txt 2>&1
    launch/vsym-run -n 4 -- /tmp/s68/bench-$b fused --op reducescatter_allreduce --dtype f32 -b 2K -e 32K --touch --consume --json /tmp/s68/t_rsar_tc_${b}_$i.jsonl > /tmp/s68/t_rsar_tc_${b}_$i.txt 2>&1
  done
  launch/vsym-run -n 4 -- /tmp/s68/bench-new fused --op allreduce_allgather --dtype f32 -b 4K -e 128K --json /tmp/s68/t_arag_new_$i.jsonl > /tmp/s68/t_arag_new_$i.txt 2>&1
  launch/vsym-run -n 4 -- /tmp/s68/bench-new fused --op reducescatter_allreduce --dtype f32 -b 2K -e 32K --json /tmp/s68/t_rsar_new_$i.jsonl > /tmp/s68/t_rsar_new_$i.txt 2>&1
done
echo done > /tmp/s68/turns.done
