#!/bin/bash
# Third device run of stop 32: the fused suite with the autotune at 16 and 8 ranks bound to
# cores, build-dev/vsym-bench (118e31b): for each rank count the suite tunes every valid op of
# every TP x DP split on 4 KiB-256 KiB of input (VSYM_AUTOTUNE_FILE, a new file per count),
# saves the table and times AUTO from it next to every mode (reduce-scatter + all-reduce), then
# a second launch times all-reduce + all-gather from the saved table. OUT/tuned.tgz.
#   bash results/coll/device-16core-2026-11-27-stop32/run_tuned.sh   (on the device, carry build-dev)
D=$(pwd)/build-dev; R=$OUT/tuned; mkdir -p $R
LIMIT=${LIMIT:-540}; B=$D/vsym-bench
export LD_LIBRARY_PATH=$D/lib
if ldd $B | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
start=$(date +%s)
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH"
for np in 16 8; do
  for op in reducescatter_allreduce allreduce_allgather; do
    name=${op}_tuned_np$np
    t=$(left); [ $t -lt 60 ] && { echo "skip $name: $t s left" >> $R/progress.txt; continue; }
    to=$(( t < 150 ? t : 150 ))
    timeout $to $M -np $np -x VSYM_AUTOTUNE_FILE=$R/tune_np$np.txt $B fused --op $op \
      --dtype f32 -b 4K -e 256K -f 4 --check --quiet --json $R/$name.jsonl > $R/$name.txt 2>&1
    echo "exit $? $(date +%T) $name $(( $(date +%s) - start )) s" >> $R/progress.txt
  done
done
(cd $OUT && tar czf tuned.tgz tuned && rm -rf tuned)
