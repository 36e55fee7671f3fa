#!/bin/bash
# Stop 63 on the 16-core guest: where the collectives' copies should stream on a host whose sysfs
# describes a larger cache than its copies find (300 MiB L3 there: VSYM_NT_THRESHOLD auto 150 MiB,
# while a copy leaves the cache between 32 and 64 MiB, stop 61). main's 55a35a6, two rounds taking
# turns between thresholds, ranks bound to cores, the input rewritten and the output read after
# each call: every collective at 8-64 MiB, 2 ranks with auto and 48M, 4 ranks with auto, 48M and
# 96M (a cap of 24 MiB a rank: stop 61 found 48M 1.2-1.5x faster at 2 ranks and slower at 8).
#   bash results/coll/device-16core-2026-12-03-stop63/run_s63.sh   (carry build-dev; run 1)
#   NAME=s63b ROUNDS="3 4 5 6 7 8" MIN=16M bash ...run_s63.sh   (run 2)
NAME=${NAME:-s63}
LIMIT=${LIMIT:-580}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench
export VSYM_HEAP_SIZE=2G
$D/vsym-info > $R/vsym-info.txt 2>&1
for round in ${ROUNDS:-1 2}; do
  for np in 2 4; do
    ts="auto 48M"; [ $np = 4 ] && ts="auto 48M 96M"
    for op in allreduce allgather reduce-scatter broadcast alltoall; do
      for t in $ts; do
        export VSYM_NT_THRESHOLD=$t
        mpirun_step $op.np$np.$t.r$round $np -x VSYM_NT_THRESHOLD -x VSYM_HEAP_SIZE \
          $D/vsym-bench $op -b ${MIN:-8M} -e 64M -f 2 -n 6 --touch --consume --json $R/$op.np$np.$t.r$round.jsonl
      done
    done
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
