#!/bin/bash
# Stop 58 on the 16-core Intel guest: the copy suite with the loaded reference timed until each
# rank's data has arrived (put with a signal, wait for the one from the rank before), ranks bound
# to cores, ring and all-to-all at 2, 8 and 16 ranks, 64 KiB-64 MiB by 4, --check.
#   bash results/copy/device-16core-2026-12-02-stop58/run_s58.sh
# (carry build-dev: vsym-bench at 9351427, lib/, lib-pmix/)
NAME=${NAME:-copy_s58}
. "$(dirname "$0")/../../coll/device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench
for np in 2 8 16; do
  for p in ring alltoall; do
    mpirun_step copy.$p.np$np $np $D/vsym-bench copy --pattern $p -b 64K -e 64M -f 4 --check \
      --json $R/copy.$p.np$np.jsonl
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
