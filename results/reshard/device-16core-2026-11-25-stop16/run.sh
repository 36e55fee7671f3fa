#!/bin/bash
# Device run 12 (stop 16): where the 8-rank reshard (tp=8 -> tp=2,dp=4, llama3-8b) loses to the
# copy service on the same tasks: scale 1/16, 1/8, 1/4 (rows 2x and 4x longer) and 1/16 without
# zero copy (every piece through the staging slots), three interleaved rounds.
D=$(cd "$(dirname "$0")" && pwd); R=$OUT/r12; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench-c16c | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
M="mpirun --allow-run-as-root -np"
MB="--bind-to core -x LD_LIBRARY_PATH -x VSYM_COPY_ZERO_COPY -x VSYM_HEAP_SIZE"
B=$D/vsym-bench-c16c
pack() { (cd $OUT && tar czf r12.tgz r12); }
t() { local lim=$1; shift; timeout $lim "$@"; echo "exit $? $(date +%T): $*" >> $R/progress.txt; }
export VSYM_HEAP_SIZE=2G
L="--model llama3-8b --from tp=8 --to tp=2,dp=4"
for round in 1 2 3; do
  for sc in 16 8 4; do
    export VSYM_COPY_ZERO_COPY=1
    t 120 $M 8 $MB $B reshard $L --scale 1/$sc --check -n 10 --json $R/rs_s${sc}_r$round.jsonl > $R/rs_s${sc}_r$round.txt 2>&1
  done
  export VSYM_COPY_ZERO_COPY=0
  t 120 $M 8 $MB $B reshard $L --scale 1/16 --check -n 10 --json $R/rs_s16_nozc_r$round.jsonl > $R/rs_s16_nozc_r$round.txt 2>&1
  pack
done
