#!/bin/bash
# Seventh device run of stop 49: the broadcast's readers asking for the next call's lines (up to
# two) beyond 2 ranks too: vsym-bench.old (21a8998: 2 ranks only) against .new (any team size), in
# turns (old first in odd rounds), ROUNDS rounds (10 in the run), 4, 8 and 16 ranks bound to cores,
# f32, 8 B-1 KiB by 2, -n 5000, --check. OUT/$NAME.tgz; tables: ../dev-2core-zen5-2026-11-28-
# stop49/ab_split_table.py on the unpacked folder.
NAME=${NAME:-s49g}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.new
for i in $(seq 1 ${ROUNDS:-10}); do
  if [ $((i % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for np in 4 8 16; do
    for v in $order; do
      mpirun_step bc.np$np.r$i.$v $np $D/vsym-bench.$v broadcast --dtype f32 -b 8 -e 1K -f 2 \
        -n 5000 --check --json $R/bc.np$np.r$i.$v.jsonl
    done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
