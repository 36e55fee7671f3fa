#!/bin/bash
# Device run of stop 47, fifth: the reduction of small counts (up to 256 B) in one call over all
# sources with a local accumulator, against the pairwise kernels one call per source. One build
# of main's 6067782 with smallred.patch (beside this script; not in main): SMALLRED 256 takes
# the one-call path up to 256 B, 0 not. In turns each round, ROUNDS rounds (5), ranks bound to
# cores, f32: the all-reduce at 2, 4, 8, 16 ranks (16 B-256 B by 4), the fused pairs at 8 and 16
# ranks (64 B and 256 B of input). OUT/$NAME.tgz.
#   bash results/coll/device-16core-2026-11-28-stop47/run_s47f.sh  (carry build-dev)
NAME=${NAME:-s47f}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench
for round in $(seq 1 ${ROUNDS:-3}); do
  for v in 0 256; do
    export SMALLRED=$v
    for np in 2 4 8 16; do
      mpirun_step ar.np${np}r$round.sr$v $np -x SMALLRED $D/vsym-bench allreduce -b 16 -e 256 \
        -f 4 --check --json $R/ar.np${np}r$round.sr$v.jsonl
    done
    for np in 8 16; do
      for op in allreduce_allgather reducescatter_allreduce; do
        mpirun_step fu.np${np}r$round.$op.sr$v $np -x SMALLRED $D/vsym-bench fused --op $op \
          --dtype f32 -b 64 -e 256 -f 4 --check --json $R/fu.np${np}r$round.$op.sr$v.jsonl
      done
    done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
