#!/bin/bash
# Device run of stop 46: how the LL all-reduce's time grows with the ranks (2-16, by 2) and the
# lines a peer (16 B-1 KiB by 2: 1, 1, 2, 3, 5, 10, 19 lines; 256 B is the protocol's last size), main's
# 6e54928, ranks bound to cores, f32, ROUNDS rounds (3; 12 in the run); Open MPI's MPI_Allreduce once per rank count;
# the fused pairs at 8 ranks (64 B-1 KiB by 4, every split, one-shot against the baseline).
# OUT/$NAME.tgz.   bash results/coll/device-16core-2026-11-28-stop46/run_s46.sh  (carry build-dev)
NAME=${NAME:-s46}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench
for round in $(seq 1 ${ROUNDS:-3}); do
  for np in 2 4 6 8 10 12 14 16; do
    mpirun_step ar.np${np}r$round $np $D/vsym-bench allreduce -b 16 -e 1K -f 2 --check \
      --json $R/ar.np${np}r$round.jsonl
  done
  for op in allreduce_allgather reducescatter_allreduce; do
    mpirun_step fu.np8r$round.$op 8 $D/vsym-bench fused --op $op --dtype f32 -b 64 -e 1K -f 4 \
      --check --json $R/fu.np8r$round.$op.jsonl
  done
done
for np in 2 4 6 8 10 12 14 16; do
  mpirun_step mpiar.np$np $np $D/mpi-coll -b 16 -e 1K -f 4 --only allreduce --json $R/mpiar.np$np.jsonl
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
