#!/bin/bash
# Device run 3 of stop 38: the fused suite of this stop's build (build-dev/vsym-bench-s38) at 128
# B-8 KiB by 2, 4, 8 and 16 ranks bound to cores, ROUNDS rounds: where does the one-shot mode of
# all-reduce + all-gather stop beating the baseline (AUTO's rule without a table takes it up to 2
# KiB of input at up to 8 ranks)? OUT/$NAME.tgz; table: fused_rule_table.py DIR.
#   bash results/coll/device-16core-2026-11-27-stop38/run_s38_fused.sh  (carry build-dev)
NAME=${NAME:-s38fused} D0=$(pwd)/build-dev
. "$(dirname "$0")/../device_step.sh"
device_setup $D0/vsym-bench-s38
for round in ${ROUNDS:-$(seq 1 6)}; do
  for np in ${NPS:-4 8 16}; do
    mpirun_step fused_np${np}_s38_r$round $np $D/vsym-bench-s38 fused -b 128 -e 8K -f 2 --check \
      --json $R/fused_np${np}_s38_r$round.jsonl
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
