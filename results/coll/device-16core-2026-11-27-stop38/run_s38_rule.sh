#!/bin/bash
# Device run 4 of stop 38: the fused suite of the build with AUTO's new rule without a table
# (build-dev/vsym-bench-s38c: one exchange up to 256 B of input with a core per rank) at 128 B-16
# KiB by 2, 4, 8 and 16 ranks bound to cores, ROUNDS rounds: AUTO against the baseline in each
# launch. OUT/$NAME.tgz; table: fused_rule_table.py DIR.
#   bash results/coll/device-16core-2026-11-27-stop38/run_s38_rule.sh  (carry build-dev)
NAME=${NAME:-s38rule} D0=$(pwd)/build-dev
. "$(dirname "$0")/../device_step.sh"
device_setup $D0/vsym-bench-s38c
for round in ${ROUNDS:-$(seq 1 5)}; do
  for np in ${NPS:-4 8 16}; do
    mpirun_step fused_np${np}_s38c_r$round $np $D/vsym-bench-s38c fused -b 128 -e 16K -f 2 \
      --check --json $R/fused_np${np}_s38c_r$round.jsonl
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
