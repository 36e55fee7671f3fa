#!/bin/bash
# Stop 59, third run: the all-reduce of ordinary buffers beyond 4 ranks with a core each, the
# ring against two-shot (both forced), 5, 6 and 8 ranks, f32, 512 KiB-4 MiB by 2, plain and with
# the input rewritten and the output read (--touch --consume), four rounds taking turns, and Open
# MPI's MPI_Allreduce each round: AUTO takes the ring from 1 MiB up to 8 ranks (stop 17), and run 2
# had it swing 369-704 us by round at 1 MiB on 8 ranks.
#   bash results/coll/device-16core-2026-12-02-stop59/run_s59c.sh   (carry build-dev)
NAME=${NAME:-s59c}
LIMIT=${LIMIT:-560}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench
for round in 1 2 3 4; do
  for np in 8 6 5; do
    for k in plain tc; do
      o=""; [ $k = tc ] && o="--touch --consume"
      for a in ring twoshot; do
        mpirun_step ar.np$np.$k.$a.r$round $np $D/vsym-bench allreduce -b 512K -e 4M -f 2 $o \
          --algo $a --json $R/ar.np$np.$k.$a.r$round.jsonl
      done
      mpirun_step ar.np$np.$k.mpi.r$round $np $D/mpi-coll --only allreduce -b 512K -e 4M -f 2 $o \
        --json $R/ar.np$np.$k.mpi.r$round.jsonl
    done
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
