#!/bin/bash
# Device run of stop 39: the fused suite with AUTO from an autotune table made in the same launch
# (VSYM_AUTOTUNE_FILE, a fresh file each launch), 64 B-64 KiB by 4, 4, 8 and 16 ranks bound to
# cores, this stop's build (build-dev/vsym-bench-s39: the autotune's second look) and the one
# before it (vsym-bench-s39old, main's adea25b), their order turning each round. Is AUTO with a
# table ever slower than the baseline? OUT/$NAME.tgz; table: ../dev-2core-zen4-2026-11-27-stop39/
# ab_tune_table.py on the records (names old_* and new_* after unpacking: see the README).
#   bash results/coll/device-16core-2026-11-27-stop39/run_s39_tune.sh  (carry build-dev)
NAME=${NAME:-s39tune}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench-s39
for round in ${ROUNDS:-$(seq 1 3)}; do
  for np in ${NPS:-4 8 16}; do
    if [ $((round % 2)) = 1 ]; then order="s39 s39old"; else order="s39old s39"; fi
    for v in $order; do
      export VSYM_AUTOTUNE_FILE=$R/at_${v}_np${np}_r$round.txt
      step fused_np${np}_${v}_r$round 120 mpirun --allow-run-as-root --bind-to core \
        -x LD_LIBRARY_PATH -x VSYM_AUTOTUNE_FILE -np $np $D/vsym-bench-$v fused -b 64 -e 64K \
        -f 4 --json $R/fused_np${np}_${v}_r$round.jsonl
    done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
