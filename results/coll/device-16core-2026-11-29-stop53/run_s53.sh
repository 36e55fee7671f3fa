#!/bin/bash
# Stop 53's device run (16-core Intel guest): the fused pairs with the input rewritten before
# each call (vsym-bench fused --touch, 6b125ac) and without, one launch each, the two taking
# turns: 4, 8 and 16 ranks bound to cores, f16, 1 KiB-1 MiB by 4, -n 300, --check, every
# factorisation of the node. build-dev holds vsym-bench.new (6b125ac) and lib/.
#   NPS="16 8 4" bash results/coll/device-16core-2026-11-29-stop53/run_s53.sh   (carry build-dev)
NAME=${NAME:-s53_${TAG:-a}}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.new
for np in ${NPS:-16 8 4}; do
  for op in allreduce_allgather reducescatter_allreduce; do
    for t in plain touch; do
      x=; [ $t = touch ] && x=--touch
      mpirun_step fused.$op.np$np.$t $np $D/vsym-bench.new fused --op $op -b 1K -e 1M -f 4 \
        -n 300 --check $x --json $R/fused.$op.np$np.$t.jsonl
    done
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
