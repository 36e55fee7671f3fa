#!/bin/bash
# Stop 53's third device run: the two-shot of reduce-scatter + all-reduce on symmetric buffers
# with its readers demoting the peers' input lines they read (cldemote, DBG_DEMOTE=1 in a debug
# build, vsym-bench.dbg2: run_s53b.sh's plus the demotion) against without, the input rewritten
# before each call (--touch), launches taking turns, two rounds; f16, -n 1000, one size a launch.
#   bash results/coll/device-16core-2026-11-29-stop53/run_s53c.sh   (carry build-dev)
NAME=${NAME:-s53c}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.dbg2
for round in 1 2; do
  for cfg in "8 2" "8 4" "16 4"; do
    set -- $cfg
    export DBG_LTP=$2
    for size in 16K 256K; do
      for dm in off on; do
        if [ $dm = on ]; then export DBG_DEMOTE=1; else unset DBG_DEMOTE; fi
        mpirun_step rsar.np$1.tp$2.$size.$dm.r$round $1 -x DBG_LTP ${DBG_DEMOTE:+-x DBG_DEMOTE} \
          $D/vsym-bench.dbg2 fused --op reducescatter_allreduce -s $size -n 1000 --touch \
          --json $R/rsar.np$1.tp$2.$size.$dm.r$round.jsonl
      done
    done
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
