#!/bin/bash
# Device run 2 of stop 38: the broadcast alone, 16 B-2 KiB by 2, at 16, 8 and 4 ranks bound to
# cores, three builds whose order turns round by round (run 1 always ran s37 first): s37 (16-byte
# LL units), s38 (64-byte lines, the broadcast's LL limit 1 KiB with a core per rank) and s38b
# (the same with that limit at 512 B). ROUNDS rounds. OUT/$NAME.tgz; table:
# STATES=all results/coll/dev-2core-zen4-2026-11-27-stop38/ab_ll_table.py DIR (s38b: "ll").
#   bash results/coll/device-16core-2026-11-27-stop38/run_s38_bc.sh  (carry build-dev)
NAME=${NAME:-s38bc} D0=$(pwd)/build-dev
SIZES=${SIZES:--b 16 -e 2K -f 2}
. "$(dirname "$0")/../device_step.sh"
device_setup $D0/vsym-bench-s38
builds=(s37 s38 s38b)
for round in ${ROUNDS:-$(seq 1 15)}; do
  for np in ${NPS:-16 8 4}; do
    for k in 0 1 2; do
      v=${builds[$(( (k + round) % 3 ))]}
      mpirun_step broadcast_np${np}_${v}_r$round $np $D/vsym-bench-$v broadcast $SIZES --check \
        --json $R/broadcast_np${np}_${v}_r$round.jsonl
    done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
