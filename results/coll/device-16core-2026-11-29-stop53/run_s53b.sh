#!/bin/bash
# Stop 53's second device run: where the time of reduce-scatter + all-reduce goes on symmetric
# buffers, input unchanged and rewritten (--touch): a debug build of 6b125ac's tree
# (vsym-bench.dbg: with DBG_PH set, every 2000 calls of a mode each rank prints the averages of
# the touch, of the two-shot's phases (entry wait, reduce + pushes, exit wait) and of the
# baseline's (reduce-scatter on DP, all-reduce on TP; rs_zc: the reduce-scatter's entry wait,
# reduction, exit wait); DBG_LTP picks the split), f16, one size a launch, -n 2000.
#   bash results/coll/device-16core-2026-11-29-stop53/run_s53b.sh   (carry build-dev)
NAME=${NAME:-s53b}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.dbg
export DBG_PH=1
for cfg in "8 2" "8 4" "16 4"; do
  set -- $cfg
  for size in 16K 256K; do
    for t in plain touch; do
      x=; [ $t = touch ] && x=--touch
      export DBG_LTP=$2; mpirun_step rsar.np$1.tp$2.$size.$t $1 -x DBG_PH -x DBG_LTP \
        $D/vsym-bench.dbg fused --op reducescatter_allreduce -s $size -n 2000 $x \
        --json $R/rsar.np$1.tp$2.$size.$t.jsonl
    done
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
