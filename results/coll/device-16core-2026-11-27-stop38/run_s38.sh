#!/bin/bash
# Device run of stop 38: the low-latency protocol's 64-byte lines (build-dev/vsym-bench-s38)
# against its 16-byte units (vsym-bench-s37, main's code before) on the 16-core Intel guest: the
# all-reduce and the broadcast, 16 B-4 KiB by 2 (the protocol's sizes and the first beyond), and
# the fused ops 256 B-4 KiB by 4 (their one-shot reads a block of each peer's lines), at 16, 8, 4
# and 2 ranks bound to cores, the two builds taking turns, ROUNDS rounds; Open MPI's all-reduce
# (mpi-coll-s38, whose records carry core_rtt_ns too) once a round. OUT/$NAME.tgz; tables:
# STATES=all results/coll/dev-2core-zen4-2026-11-27-stop38/ab_ll_table.py DIR (fused_table.py).
#   bash results/coll/device-16core-2026-11-27-stop38/run_s38.sh  (carry build-dev)
NAME=${NAME:-s38} D0=$(pwd)/build-dev
SIZES=${SIZES:--b 16 -e 4K -f 2}
. "$(dirname "$0")/../device_step.sh"
device_setup $D0/vsym-bench-s38
for round in ${ROUNDS:-$(seq 1 12)}; do
  for np in ${NPS:-16 8 4 2}; do
    for c in allreduce broadcast; do
      for v in s37 s38; do
        mpirun_step ${c}_np${np}_${v}_r$round $np $D/vsym-bench-$v $c $SIZES --check \
          --json $R/${c}_np${np}_${v}_r$round.jsonl
      done
    done
    for v in s37 s38; do
      [ $np -gt 2 ] && mpirun_step fused_np${np}_${v}_r$round $np $D/vsym-bench-$v fused \
        -b 256 -e 4K -f 4 --check --json $R/fused_np${np}_${v}_r$round.jsonl
    done
    mpirun_step mpi_np${np}_r$round $np $D/mpi-coll-s38 $SIZES --only allreduce \
      --json $R/mpi_np${np}_r$round.jsonl
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
