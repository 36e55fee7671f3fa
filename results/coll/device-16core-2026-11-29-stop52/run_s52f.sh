#!/bin/bash
# Sixth device run of stop 52 (16-core Intel guest): the fused pairs at 16 ranks bound to cores,
# 512 B-4 KiB of input, f16, --check, at 574b52d (AUTO from the rule: the two-shot modes from 4 KiB
# on symmetric buffers beyond 8 ranks), each op in its own launch, three rounds: whether the
# smaller sizes of 574b52d for at most 8 ranks hold at 16.
# build-dev holds vsym-bench.574b and lib/.
#   FROM=1 TO=3 bash results/coll/device-16core-2026-11-29-stop52/run_s52f.sh   (carry build-dev)
NAME=${NAME:-s52f_${FROM:-1}}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.574b
for round in $(seq ${FROM:-1} ${TO:-3}); do
  for op in allreduce_allgather reducescatter_allreduce; do
    mpirun_step fused.$op.np16.r$round 16 $D/vsym-bench.574b fused --op $op -b 512 -e 4K -f 2 \
      --check --json $R/fused.$op.np16.r$round.jsonl
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
