#!/bin/bash
# Fifth device run of stop 52 (16-core Intel guest): AUTO's sizes with a core per rank at 574b52d
# (symmetric buffers: the two-shot modes from 512 B, reduce-scatter + all-reduce from 1 KiB;
# ordinary buffers: all-reduce + all-gather's two-shot from 1 KiB) against the build before
# (vsym-bench.new, 582aeba: 4 KiB and 2 KiB), the builds taking turns (old first in odd rounds),
# 8 and 4 ranks bound to cores, f16, 256 B-4 KiB, --check, four rounds.
# build-dev holds vsym-bench.new (582aeba), vsym-bench.574b (574b52d) and lib/.
#   FROM=1 TO=4 bash results/coll/device-16core-2026-11-29-stop52/run_s52e.sh   (carry build-dev)
NAME=${NAME:-s52e_${FROM:-1}}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.574b
for round in $(seq ${FROM:-1} ${TO:-4}); do
  if [ $((round % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for np in 8 4; do
    for v in $order; do
      bin=$D/vsym-bench.new; [ $v = new ] && bin=$D/vsym-bench.574b
      mpirun_step fused.np$np.r$round.$v $np $bin fused -b 256 -e 4K -f 2 --check \
        --json $R/fused.np$np.r$round.$v.jsonl
    done
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
