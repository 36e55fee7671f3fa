#!/bin/bash
# Device run 4 of stop 45: vsym-bench-pf1 (every pending peer per pass, as vsym-bench-rr, with the
# first missing line of each prefetched; AUTO's rule taking the fused reduce-scatter + all-reduce's
# one exchange up to 256 B beyond 8 ranks where DP >= 4) against old, rr and new (every missing
# line prefetched), at 16 and 8 ranks bound to cores, orders turning: the all-reduce 16 B-4 KiB by
# 4 (old rr new pf1), the broadcast 16 B-1 KiB by 4 (old new pf1), the fused pairs 64 B-1 KiB by 4
# (old pf1), f32; Open MPI's all-reduce and broadcast once a round. OUT/$NAME.tgz; tables:
# ab_table.py DIR.
#   bash results/coll/device-16core-2026-11-28-stop45/run_s45d.sh  (carry build-dev)
NAME=${NAME:-s45d}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench-pf1
for round in $(seq 1 ${ROUNDS:-6}); do
  for np in ${NPS:-16 8}; do
    case $((round % 4)) in
    1) order="old rr new pf1" ;;
    2) order="pf1 old rr new" ;;
    3) order="new pf1 old rr" ;;
    *) order="rr new pf1 old" ;;
    esac
    for v in $order; do
      mpirun_step ar.$v.np${np}r$round $np $D/vsym-bench-$v allreduce -b 16 -e 4K -f 4 --check \
        --json $R/ar.$v.np${np}r$round.jsonl
    done
    for v in $order; do
      [ $v = rr ] && continue
      mpirun_step bc.$v.np${np}r$round $np $D/vsym-bench-$v broadcast -b 16 -e 1K -f 4 --check \
        --json $R/bc.$v.np${np}r$round.jsonl
      [ $v = new ] && continue
      for op in allreduce_allgather reducescatter_allreduce; do
        mpirun_step fu.$v.np${np}r$round.$op $np $D/vsym-bench-$v fused --op $op --dtype f32 \
          -b 64 -e 1K -f 4 --check --json $R/fu.$v.np${np}r$round.$op.jsonl
      done
    done
    mpirun_step mpi.np${np}r$round $np $D/mpi-coll -b 16 -e 4K -f 4 --only allreduce \
      --json $R/mpi.np${np}r$round.jsonl
    mpirun_step mpibc.np${np}r$round $np $D/mpi-coll -b 16 -e 1K -f 4 --only broadcast \
      --json $R/mpibc.np${np}r$round.jsonl
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
