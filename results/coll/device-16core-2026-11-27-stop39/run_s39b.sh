#!/bin/bash
# Device run 2 of stop 39: what AUTO costs per call. build-dev/vsym-bench-s39 (run 1's build:
# the autotune's second look, the size bucket from libm's lround(log2())) against
# vsym-bench-s39b (the bucket in integers), their order turning: first one rank (no launcher, the
# fused ops of a 1 x 1 topology: AUTO's dispatch alone), 8 launches each, then the fused suite
# with a fresh autotune table per launch at 4, 8 and 16 ranks bound to cores, 64 B-64 KiB by 4.
# OUT/$NAME.tgz; tables: ../dev-2core-zen4-2026-11-27-stop39/ab_tune_table.py and auto_cost.py.
#   bash results/coll/device-16core-2026-11-27-stop39/run_s39b.sh  (carry build-dev)
NAME=${NAME:-s39b}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench-s39b
for i in $(seq 1 8); do
  if [ $((i % 2)) = 1 ]; then order="s39 s39b"; else order="s39b s39"; fi
  for v in $order; do
    export VSYM_AUTOTUNE_FILE=$R/at1_${v}_$i.txt
    step one_${v}_$i 30 $D/vsym-bench-$v fused -b 64 -e 1K -f 4 --json $R/fused_np1_${v}_r$i.jsonl
  done
done
. "$(dirname "$0")/fused_tuned.sh"
fused_tuned_rounds s39 s39b
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
