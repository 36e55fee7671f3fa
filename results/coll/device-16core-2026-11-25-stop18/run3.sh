#!/bin/bash
# Device run 3 (stop 18): the fused autotune keeping each mode's best of three rounds (vsym-bench-min,
# commit 68d55f6) against keeping the median of three with the modes' order rotating per round
# (vsym-bench-med, the next commit), 8 ranks, f32, 64 B - 64 KiB: each binary makes its own table
# (VSYM_AUTOTUNE_FILE, a fresh file per launch; the first fused run tunes every op of every split),
# then vsym-bench fused reports auto (the tuned choice) next to the baseline. Two rounds.
D=$(cd "$(dirname "$0")" && pwd); R=$OUT/r3; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench-med | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
M="mpirun --allow-run-as-root -np 8 --bind-to core -x LD_LIBRARY_PATH -x VSYM_AUTOTUNE_FILE"
pack() { (cd $OUT && tar czf r3.tgz r3); }
t() { local lim=$1; shift; timeout $lim "$@"; echo "exit $? $(date +%T): ${*: -4}" >> $R/progress.txt; }
for round in 1 2; do
  for v in min med; do
    export VSYM_AUTOTUNE_FILE=$R/tune_${v}_r$round.txt
    for op in allreduce_allgather reducescatter_allreduce; do
      t 100 $M $D/vsym-bench-$v fused --dtype f32 --op $op -b 64 -e 64K -f 4 -n 200 -w 20 --json $R/${op}_${v}_r$round.jsonl > $R/${op}_${v}_r$round.txt 2>&1
    done
    pack
  done
done
