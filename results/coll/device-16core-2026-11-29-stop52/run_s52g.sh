#!/bin/bash
# Seventh device run of stop 52 (16-core Intel guest): AUTO at 16 ranks bound to cores with
# b754dd4 (new: symmetric buffers' two-shot modes from 1 KiB, reduce-scatter + all-reduce from
# 2 KiB but of TP 2) against 574b52d (old: from 4 KiB), the builds taking turns (old first in odd
# rounds), each op in its own launch, 512 B-4 KiB, f16, --check, three rounds.
# build-dev holds vsym-bench.574b, vsym-bench.head (b754dd4) and lib/.
#   FROM=1 TO=3 bash results/coll/device-16core-2026-11-29-stop52/run_s52g.sh   (carry build-dev)
NAME=${NAME:-s52g_${FROM:-1}}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.head
for round in $(seq ${FROM:-1} ${TO:-3}); do
  if [ $((round % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for op in allreduce_allgather reducescatter_allreduce; do
    for v in $order; do
      bin=$D/vsym-bench.574b; [ $v = new ] && bin=$D/vsym-bench.head
      mpirun_step fused.$op.np16.r$round.$v 16 $bin fused --op $op -b 512 -e 4K -f 2 --check \
        --json $R/fused.$op.np16.r$round.$v.jsonl
    done
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
