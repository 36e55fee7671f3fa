#!/bin/bash
# Second device run of stop 49: where run_s49.sh's three rounds left the split (new) slower, the
# all-reduce at 8 ranks to 256 KiB (0.77-0.91 of the old speed in 2 of 3 rounds), more rounds:
# the all-reduce at 2, 8 and 16 ranks (8 B-256 KiB by 8) and the fused all-reduce + all-gather at
# 8 ranks (64 B-64 KiB by 4), ROUNDS rounds (8 in the run), old and new in turns. OUT/$NAME.tgz.
NAME=${NAME:-s49b}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.new
for round in $(seq 1 ${ROUNDS:-8}); do
  if [ $((round % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for np in 8 2 16; do
    for v in $order; do
      mpirun_step ar.np$np.r$round.$v $np $D/vsym-bench.$v allreduce -b 8 -e 256K -f 8 -n 1000 \
        --check --json $R/ar.np$np.r$round.$v.jsonl
    done
  done
  for v in $order; do
    mpirun_step fu.np8.allreduce_allgather.r$round.$v 8 $D/vsym-bench.$v fused \
      --op allreduce_allgather --dtype f32 -b 64 -e 64K -f 4 -n 500 --check \
      --json $R/fu.np8.allreduce_allgather.r$round.$v.jsonl
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
