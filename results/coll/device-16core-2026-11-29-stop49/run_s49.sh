#!/bin/bash
# Device run of stop 49: lib/coll split into files (89d52ce) against the whole coll.c before it
# (b0f5ba3), the same benchmarks in turns (old first in odd rounds), ROUNDS rounds (3 in the
# run), ranks bound to cores, f32, --check: the all-reduce at 2, 8 and 16 ranks (8 B-16 MiB by
# 8), the all-gather, broadcast, reduce-scatter and all-to-all at 8 and 16 ranks (64 B-4 MiB by
# 16), the fused pairs at 8 ranks (64 B-64 KiB by 4). build-dev holds vsym-bench.old and
# vsym-bench.new (built here) and lib/ (libcpufreq, libjansson). OUT/$NAME.tgz.
#   bash results/coll/device-16core-2026-11-29-stop49/run_s49.sh  (carry build-dev)
NAME=${NAME:-s49}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.new
nproc > $R/nproc.txt
for round in $(seq 1 ${ROUNDS:-3}); do
  if [ $((round % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for np in 2 8 16; do
    for v in $order; do
      mpirun_step ar.np$np.r$round.$v $np $D/vsym-bench.$v allreduce -b 8 -e 16M -f 8 -n 200 \
        --check --json $R/ar.np$np.r$round.$v.jsonl
    done
  done
  for np in 8 16; do
    for s in allgather broadcast reduce-scatter alltoall; do
      for v in $order; do
        mpirun_step $s.np$np.r$round.$v $np $D/vsym-bench.$v $s -b 64 -e 4M -f 16 -n 200 \
          --check --json $R/$s.np$np.r$round.$v.jsonl
      done
    done
  done
  for op in allreduce_allgather reducescatter_allreduce; do
    for v in $order; do
      mpirun_step fu.np8.$op.r$round.$v 8 $D/vsym-bench.$v fused --op $op --dtype f32 -b 64 \
        -e 64K -f 4 -n 200 --check --json $R/fu.np8.$op.r$round.$v.jsonl
    done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
