#!/bin/bash
# Device run 6 of stop 45: the all-gather, reduce-scatter and all-to-all of small sizes through
# the LL protocol (build-dev/vsym-bench-ll) against the scratch and its barrier (vsym-bench-old:
# main's 180be7e), at 16 and 8 ranks bound to cores, the order turning per round: all-gather 64 B-8
# KiB (gathered), reduce-scatter and all-to-all 64 B-1 KiB (a rank's input), by 2, f32; the fused
# pairs 64 B-1 KiB by 4 (their baseline calls these); Open MPI's three once a round.
# OUT/$NAME.tgz; tables: ab_table.py DIR.
#   bash results/coll/device-16core-2026-11-28-stop45/run_s45f.sh  (carry build-dev)
NAME=${NAME:-s45f}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench-ll
for round in $(seq 1 ${ROUNDS:-5}); do
  for np in ${NPS:-16 8}; do
    if [ $((round % 2)) = 1 ]; then order="old ll"; else order="ll old"; fi
    for v in $order; do
      mpirun_step ag.$v.np${np}r$round $np $D/vsym-bench-$v allgather -b 64 -e 8K --check \
        --json $R/ag.$v.np${np}r$round.jsonl
      mpirun_step rs.$v.np${np}r$round $np $D/vsym-bench-$v reduce-scatter -b 64 -e 1K --check \
        --json $R/rs.$v.np${np}r$round.jsonl
      mpirun_step aa.$v.np${np}r$round $np $D/vsym-bench-$v alltoall -b 64 -e 1K --check \
        --json $R/aa.$v.np${np}r$round.jsonl
    done
    for v in $order; do
      for op in allreduce_allgather reducescatter_allreduce; do
        mpirun_step fu.$v.np${np}r$round.$op $np $D/vsym-bench-$v fused --op $op --dtype f32 \
          -b 64 -e 1K -f 4 --check --json $R/fu.$v.np${np}r$round.$op.jsonl
      done
    done
    for k in allgather reduce-scatter alltoall; do
      mpirun_step mpi$k.np${np}r$round $np $D/mpi-coll -b 64 -e 8K --only $k \
        --json $R/mpi$k.np${np}r$round.jsonl
    done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
