#!/bin/bash
# Device run of stop 39: the fused suite with AUTO from an autotune table made in the same launch
# (VSYM_AUTOTUNE_FILE, a fresh file each launch), 64 B-64 KiB by 4, 4, 8 and 16 ranks bound to
# cores, this stop's build (build-dev/vsym-bench-s39: the autotune's second look) and the one
# before it (vsym-bench-s39old, main's adea25b), their order turning each round. Is AUTO with a
# table ever slower than the baseline? OUT/$NAME.tgz; tables: ../dev-2core-zen4-2026-11-27-stop39/
# ab_tune_table.py DIR (by build) and auto_cost.py DIR.
#   bash results/coll/device-16core-2026-11-27-stop39/run_s39_tune.sh  (carry build-dev)
# A and B name the builds (run 4, run_s39d.sh, passes s39c and s39d).
NAME=${NAME:-s39tune} A=${A:-s39} B=${B:-s39old}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench-$A
. "$(dirname "$0")/fused_tuned.sh"
fused_tuned_rounds $A $B
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
