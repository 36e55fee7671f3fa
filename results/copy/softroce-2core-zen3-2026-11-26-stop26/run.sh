#!/bin/bash
# VM: the copy service over verbs from ordinary and from symmetric send buffers (--send), with
# the put references from the same memory; ratios only; two rounds, the two kinds in turns.
#   launch/vsym-softroce --mem 4096 --timeout 2300 --rw OUT -- run.sh BENCH OUT
B=$1; O=$2
R="launch/vsym-run -n"; T="timeout 500"
export VSYM_HEAP_SIZE=64M VSYM_INTERNAL_SIZE=16M
for r in 1 2; do
  for s in ordinary symmetric; do
    ( export VSYM_TRANSPORT=verbs
      $T $R 2 -- $B copy --pattern ring --send $s -b 64K -e 4M -f 64 -n 10 --check \
          --json $O/copy_ring_np2_${s}_r$r.jsonl > $O/copy_ring_np2_${s}_r$r.txt 2>&1 )
    ( export VSYM_VIRTUAL_NODES=2
      $T $R 4 -- $B copy --pattern alltoall --send $s -b 1M -e 1M -n 5 --check \
          --json $O/copy_alltoall_2x2_${s}_r$r.jsonl > $O/copy_alltoall_2x2_${s}_r$r.txt 2>&1 )
  done
done
echo done
