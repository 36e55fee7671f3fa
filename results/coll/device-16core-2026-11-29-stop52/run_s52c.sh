#!/bin/bash
# Third device run of stop 52 (16-core Intel guest): the fused pairs between 256 B and 4 KiB of
# input, where AUTO's rule (a core per rank, at most 8 ranks) runs the baseline from 512 B up to
# the two-shot modes' 4 KiB on symmetric buffers (run_s52b.sh found the two-shot 1.06-1.23x the
# baseline at 512 B on 8 ranks): 8 and 4 ranks bound to cores, f16, --check, each op in its own
# launch, three rounds. build-dev holds vsym-bench.new (582aeba) and lib/.
#   FROM=1 TO=3 bash results/coll/device-16core-2026-11-29-stop52/run_s52c.sh   (carry build-dev)
NAME=${NAME:-s52c_${FROM:-1}}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.new
for round in $(seq ${FROM:-1} ${TO:-3}); do
  for np in 8 4; do
    for op in allreduce_allgather reducescatter_allreduce; do
      mpirun_step fused.$op.np$np.r$round $np $D/vsym-bench.new fused --op $op -b 256 -e 4K \
        -f 2 --check --json $R/fused.$op.np$np.r$round.jsonl
    done
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
