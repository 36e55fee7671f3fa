#!/bin/bash
# Stop 59 on the 16-core guest: the all-reduce of ordinary buffers through process-to-process
# copies (ar_pcopy) against the scratch paths, 2, 4, 8 and 16 ranks with a core each, f32,
# 512 KiB-64 MiB by 2, the input rewritten before each call and the output read after it
# (--touch --consume), two rounds taking turns (VSYM_COLL_PCOPY_MIN=0: never, 1M: from 1 MiB);
# Open MPI's MPI_Allreduce the same way; then the fused reduce-scatter + all-reduce at 128 KiB-1
# MiB (f16, every TP x DP split, AUTO untuned: the modes' columns) at 4, 8 and 16 ranks.
#   bash results/coll/device-16core-2026-12-02-stop59/run_s59.sh   (carry build-dev)
NAME=${NAME:-s59}
LIMIT=${LIMIT:-560}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench
for round in 1 2; do
  for np in 2 4 8 16; do
    for v in off on; do
      export VSYM_COLL_PCOPY_MIN=0
      [ $v = on ] && export VSYM_COLL_PCOPY_MIN=1M
      mpirun_step ar.np$np.$v.r$round $np -x VSYM_COLL_PCOPY_MIN $D/vsym-bench allreduce \
        -b 512K -e 64M -f 2 --touch --consume --json $R/ar.np$np.$v.r$round.jsonl
    done
  done
done
unset VSYM_COLL_PCOPY_MIN
for np in 2 4 8 16; do
  mpirun_step ar.np$np.mpi $np $D/mpi-coll --only allreduce -b 512K -e 64M -f 2 --touch \
    --consume --json $R/ar.np$np.mpi.jsonl
done
for np in 4 8 16; do
  mpirun_step fused.np$np $np $D/vsym-bench fused --op reducescatter_allreduce --dtype f16 \
    -b 128K -e 1M -f 2 -n 100 --check --json $R/fused.np$np.jsonl
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
