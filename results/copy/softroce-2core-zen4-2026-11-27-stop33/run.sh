#!/bin/bash
# VM (stop 33): the copy service over verbs from ordinary send buffers registered for the NIC at
# schedule time (NEW) against the build before (OLD, which copied every put of them through the
# transport's bounce slots), and NEW from symmetric send buffers; the put references from the same
# memory (registered too in NEW's bench); ratios only; two rounds, taking turns.
#   launch/vsym-softroce --mem 4096 --timeout 2300 --rw OUT -- run.sh NEW_BENCH OLD_BENCH OUT
NEW=$1; OLD=$2; O=$3
R="launch/vsym-run -n"; T="timeout 500"
export VSYM_HEAP_SIZE=64M VSYM_INTERNAL_SIZE=16M
for r in 1 2; do
  for v in new_ordinary new_symmetric old_ordinary; do
    B=$NEW; [ ${v%%_*} = old ] && B=$OLD
    s=${v#*_}
    ( export VSYM_TRANSPORT=verbs
      $T $R 2 -- $B copy --pattern ring --send $s -b 64K -e 4M -f 64 -n 10 --check \
          --json $O/copy_ring_np2_${v}_r$r.jsonl > $O/copy_ring_np2_${v}_r$r.txt 2>&1 )
    ( export VSYM_VIRTUAL_NODES=2
      $T $R 4 -- $B copy --pattern alltoall --send $s -b 1M -e 1M -n 5 --check \
          --json $O/copy_alltoall_2x2_${v}_r$r.jsonl > $O/copy_alltoall_2x2_${v}_r$r.txt 2>&1 )
  done
done
echo done
