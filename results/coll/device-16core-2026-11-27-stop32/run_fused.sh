#!/bin/bash
# Second device run of stop 32: the fused reduce-scatter + all-reduce and all-reduce + all-gather
# at 16 ranks bound to cores, 4 KiB-4 MiB of input, every TP x DP split and mode of the node,
# build-dev/vsym-bench (9b7ef15): two launches per op with AUTO's size rule (no table), then one
# with the autotune (VSYM_AUTOTUNE_FILE: the suite tunes every valid op on its sizes, 4 KiB-1 MiB
# there, saves the table, then times AUTO from it), then the other op from that table.
# OUT/fused.tgz.
#   bash results/coll/device-16core-2026-11-27-stop32/run_fused.sh   (on the device, carry build-dev)
D=$(pwd)/build-dev; R=$OUT/fused; mkdir -p $R
LIMIT=${LIMIT:-540}; B=${BENCH:-$D/vsym-bench}
export LD_LIBRARY_PATH=$D/lib
if ldd $B | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
start=$(date +%s)
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH"
run() { # name timeout [env] args...
  local name=$1 to=$2; shift 2
  t=$(left); [ $t -lt $to ] && { echo "skip $name: $t s left" >> $R/progress.txt; return; }
  timeout $to $M -np 16 "$@" --dtype f32 -b 4K -e ${E:-4M} -f 4 --check --quiet \
    --json $R/$name.jsonl > $R/$name.txt 2>&1
  echo "exit $? $(date +%T) $name $(( $(date +%s) - start )) s" >> $R/progress.txt
}
for r in 1 2; do
  for op in reducescatter_allreduce allreduce_allgather; do
    run ${op}_rule_r$r 100 $B fused --op $op
  done
done
E=1M run reducescatter_allreduce_tuned 240 -x VSYM_AUTOTUNE_FILE=$R/tune16.txt $B fused \
  --op reducescatter_allreduce
E=1M run allreduce_allgather_tuned 60 -x VSYM_AUTOTUNE_FILE=$R/tune16.txt $B fused \
  --op allreduce_allgather
(cd $OUT && tar czf fused.tgz fused && rm -rf fused)
