#!/bin/bash
# Stop 54's rules at 16 ranks of the 16-core Intel guest: the fused pairs, f16, 1 KiB-1 MiB by 4,
# -n 100 --check, input rewritten before each call and output read after it (--touch
# --consume), every TP x DP split, AUTO by the rule against the baseline; one launch each.
# build-dev holds vsym-bench.new (cf48258) and lib/.
#   bash results/coll/device-16core-2026-11-29-stop54/run_s54w.sh   (carry build-dev)
NAME=${NAME:-s54_${TAG:-w}}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.new
B=$D/vsym-bench.new
for op in reducescatter_allreduce allreduce_allgather; do
  mpirun_step fused.$op.np16 16 $B fused --op $op -b 1K -e 1M -f 4 --dtype f16 -n 100 --check \
    --touch --consume --json $R/fused.$op.np16.jsonl
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
