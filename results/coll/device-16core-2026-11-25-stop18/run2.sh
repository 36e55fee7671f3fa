#!/bin/bash
# Device run 2 (stop 18): the fused reduce-scatter + all-reduce at small sizes before (vsym-bench-old,
# commit 2b7f386) and after the change of its low-latency exchange (each rank fetches one block of
# each peer's input, not the whole input; LL used while the block fits the LL limit), two
# interleaved launches of each at 4 and 8 ranks, 64 B - 16 KiB, --check.
D=$(cd "$(dirname "$0")" && pwd); R=$OUT/r2; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
M="mpirun --allow-run-as-root -np"
MB="--bind-to core -x LD_LIBRARY_PATH"
pack() { (cd $OUT && tar czf r2.tgz r2); }
t() { local lim=$1; shift; timeout $lim "$@"; echo "exit $? $(date +%T): ${*: -6}" >> $R/progress.txt; }
for round in 1 2; do
  for np in 4 8; do
    for v in old new; do
      b=$D/vsym-bench; [ $v = old ] && b=$D/vsym-bench-old
      t 40 $M $np $MB $b fused --dtype f32 --op reducescatter_allreduce -b 64 -e 16K -f 4 -n 500 -w 50 --check --json $R/rsar_${v}_np${np}_r$round.jsonl > $R/rsar_${v}_np${np}_r$round.txt 2>&1
    done
  done
  pack
done
