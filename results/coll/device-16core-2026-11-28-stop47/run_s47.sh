#!/bin/bash
# Device run of stop 47: the LL protocol's writer taking its next region's lines for writing at
# the end of each call (prefetchw), against not: one build of main's f994b1f with llpw.patch
# (beside this script; not in main), which reads LLPW (0: none, as f994b1f; 1: the region of call
# seq + 1, what landed for 2-rank teams; 2: of seq + 2) at every team size, in turns, ROUNDS rounds
# (5 in the run), ranks bound to cores, f32: the all-reduce at 2, 4, 8 and 16 ranks (16 B-1 KiB
# by 2), the fused pairs at 8 and 16 ranks (64 B-4 KiB by 4, every split and mode); Open MPI's
# MPI_Allreduce once per rank count, first. OUT/$NAME.tgz.
#   bash results/coll/device-16core-2026-11-28-stop47/run_s47.sh  (carry build-dev)
NAME=${NAME:-s47}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench
for np in 2 4 8 16; do
  mpirun_step mpiar.np$np $np $D/mpi-coll -b 16 -e 1K -f 2 --only allreduce --json $R/mpiar.np$np.jsonl
done
for round in $(seq 1 ${ROUNDS:-3}); do
  for pw in 0 1 2; do
    export LLPW=$pw
    for np in 2 4 8 16; do
      mpirun_step ar.np${np}r$round.pw$pw $np -x LLPW $D/vsym-bench allreduce -b 16 -e 1K -f 2 \
        --check --json $R/ar.np${np}r$round.pw$pw.jsonl
    done
    for np in 8 16; do
      for op in allreduce_allgather reducescatter_allreduce; do
        mpirun_step fu.np${np}r$round.$op.pw$pw $np -x LLPW $D/vsym-bench fused --op $op \
          --dtype f32 -b 64 -e 4K -f 4 --check --json $R/fu.np${np}r$round.$op.pw$pw.jsonl
      done
    done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
