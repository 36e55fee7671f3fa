#!/bin/bash
# Device run of stop 45: waits on every peer at once (each pass of the LL exchange's and the
# barrier's waits reads every pending peer; a late rank holds up only itself) against one peer
# after the other, at 16 and 8 ranks bound to cores. build-dev/vsym-bench-old (main's 6f642b6),
# vsym-bench-rr (every pending peer per pass), vsym-bench-new (the same, with every missing line
# of every pending peer prefetched first), their order turning per round: the all-reduce 16 B-64
# KiB by 4 (the LL protocol to 1 KiB, the scratch's barrier beyond) and the fused pairs (old and
# new) 64 B-16 KiB by 4, every TP x DP split, f32; Open MPI's all-reduce once a round.
# OUT/$NAME.tgz; tables: ab_table.py DIR (DIR: the unpacked $NAME).
#   bash results/coll/device-16core-2026-11-28-stop45/run_s45.sh  (carry build-dev)
NAME=${NAME:-s45}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench-new
for round in $(seq 1 ${ROUNDS:-4}); do
  for np in ${NPS:-16 8}; do
    case $((round % 3)) in
    1) order="old rr new" ;;
    2) order="new old rr" ;;
    *) order="rr new old" ;;
    esac
    for v in $order; do
      mpirun_step ar.$v.np${np}r$round $np $D/vsym-bench-$v allreduce -b 16 -e 64K -f 4 --check \
        --json $R/ar.$v.np${np}r$round.jsonl
    done
    for v in $order; do
      [ $v = rr ] && continue
      for op in allreduce_allgather reducescatter_allreduce; do
        mpirun_step fu.$v.np${np}r$round.$op $np $D/vsym-bench-$v fused --op $op --dtype f32 \
          -b 64 -e 16K -f 4 --check --json $R/fu.$v.np${np}r$round.$op.jsonl
      done
    done
    mpirun_step mpi.np${np}r$round $np $D/mpi-coll -b 16 -e 64K -f 4 --only allreduce \
      --json $R/mpi.np${np}r$round.jsonl
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
