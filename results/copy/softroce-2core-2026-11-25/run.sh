#!/bin/bash
# VM: copy service over verbs with the loaded put reference (ratios only), two rounds.
O=$1; cd /work/main
R="launch/vsym-run -n"; T="timeout 500"
export VSYM_HEAP_SIZE=64M VSYM_INTERNAL_SIZE=16M
for r in 1 2; do
( export VSYM_TRANSPORT=verbs
  $T $R 2 -- build/benches/vsym-bench copy --pattern ring -b 64K -e 4M -f 64 -n 10 --check --json $O/copy_ring_np2_r$r.jsonl > $O/copy_ring_np2_r$r.txt 2>&1
)
( export VSYM_VIRTUAL_NODES=2
  $T $R 4 -- build/benches/vsym-bench copy --pattern alltoall -b 1M -e 1M -n 5 --check --json $O/copy_alltoall_2x2_r$r.jsonl > $O/copy_alltoall_2x2_r$r.txt 2>&1
)
done
echo done
