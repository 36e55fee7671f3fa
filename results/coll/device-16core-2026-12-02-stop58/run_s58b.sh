#!/bin/bash
# Stop 58, second run: the all-reduce at 8 and 16 ranks, 8 B-2 KiB by 4, three rounds, vsym-bench
# and mpi-coll taking turns (run_s58.sh's 16-rank launch had 8 B in place at 1.65x Open MPI's
# time, 32 B 0.80: its first sizes slow).
#   bash results/coll/device-16core-2026-12-02-stop58/run_s58b.sh   (carry build-dev)
NAME=${NAME:-s58b}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench
for round in 1 2 3; do
  for np in 16 8; do
    mpirun_step ar.np$np.vsym.r$round $np $D/vsym-bench allreduce -b 8 -e 2K -f 4 \
      --json $R/ar.np$np.vsym.r$round.jsonl
    mpirun_step ar.np$np.mpi.r$round $np $D/mpi-coll --only allreduce -b 8 -e 2K -f 4 \
      --json $R/ar.np$np.mpi.r$round.jsonl
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
