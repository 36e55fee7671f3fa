#!/bin/bash
# Stop 59, second run: the all-reduce of ordinary buffers at 4 and 8 ranks with a core each, f32,
# 256 KiB-16 MiB by 2, input rewritten before each call and output read after it, three rounds
# taking turns: the ring and two-shot forced (VSYM_COLL_PCOPY_MIN=0), AUTO with the
# process-to-process copies from 1 MiB (VSYM_COLL_PCOPY_MIN=1M), Open MPI's MPI_Allreduce.
#   bash results/coll/device-16core-2026-12-02-stop59/run_s59b.sh   (carry build-dev)
NAME=${NAME:-s59b}
LIMIT=${LIMIT:-560}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench
for round in 1 2 3; do
  for np in 8 4; do
    export VSYM_COLL_PCOPY_MIN=0
    for a in ring twoshot; do
      mpirun_step ar.np$np.$a.r$round $np -x VSYM_COLL_PCOPY_MIN $D/vsym-bench allreduce \
        -b 256K -e 16M -f 2 --touch --consume --algo $a --json $R/ar.np$np.$a.r$round.jsonl
    done
    export VSYM_COLL_PCOPY_MIN=1M
    mpirun_step ar.np$np.pcopy.r$round $np -x VSYM_COLL_PCOPY_MIN $D/vsym-bench allreduce \
      -b 256K -e 16M -f 2 --touch --consume --json $R/ar.np$np.pcopy.r$round.jsonl
    mpirun_step ar.np$np.mpi.r$round $np $D/mpi-coll --only allreduce -b 256K -e 16M -f 2 \
      --touch --consume --json $R/ar.np$np.mpi.r$round.jsonl
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
