#!/bin/bash
# Device run 3 of stop 39: the copy service where two ranks do not share one memory system's
# bandwidth as on the 2-core host. vsym-bench copy --pattern alltoall and ring, 64 KiB-64 MiB a
# task by 4, --check, 2 and 4 ranks bound to cores (Open MPI's --bind-to core), ROUNDS rounds,
# main's bc35ff2 (build-dev/vsym-bench-s39c): per-rank copy bandwidth against the single-peer put
# measured in the same run (copy/put) and against every rank putting at once (copy/put_all).
# OUT/$NAME.tgz; table: copy_table.py DIR.
#   bash results/copy/device-16core-2026-11-27-stop39/run_s39_copy.sh  (carry build-dev)
NAME=${NAME:-s39copy}
. "$(dirname "$0")/../../coll/device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench-s39c
for round in ${ROUNDS:-$(seq 1 4)}; do
  for np in ${NPS:-2 4}; do
    for pat in alltoall ring; do
      mpirun_step copy_${pat}_np${np}_r$round $np $D/vsym-bench-s39c copy --pattern $pat -b 64K \
        -e 64M -f 4 --check --json $R/copy_${pat}_np${np}_r$round.jsonl
    done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
