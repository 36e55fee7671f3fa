#!/bin/bash
# Device run of stop 47, fourth: where the fused calls' time goes. One build of main's 6067782
# with fprof.patch (beside this script; not in main): with FPROF set, every rank prints at exit
# the mean time (TSC) of its vsym_fused_run calls per mode, of the library collectives they call,
# and of the LL protocol's begin, publish and fetch within them. Ranks bound to cores, f32, one
# size per launch, ROUNDS rounds (3): the fused pairs at 8 ranks (64 B and 256 B of input) and
# 16 ranks (64 B). OUT/$NAME.tgz.
#   bash results/coll/device-16core-2026-11-28-stop47/run_s47d.sh  (carry build-dev)
NAME=${NAME:-s47d}  # s47e: the same with the finer fprof.patch (pre, run_oneshot, reduce, ll_end)
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench
export FPROF=1
for round in $(seq 1 ${ROUNDS:-3}); do
  for np in 8 16; do
    for sz in 64 256; do
      [ $np = 16 ] && [ $sz = 256 ] && continue
      for op in allreduce_allgather reducescatter_allreduce; do
        mpirun_step fu.np${np}r$round.$op.s$sz $np -x FPROF $D/vsym-bench fused --op $op \
          --dtype f32 -s $sz --json $R/fu.np${np}r$round.$op.s$sz.jsonl
      done
    done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
