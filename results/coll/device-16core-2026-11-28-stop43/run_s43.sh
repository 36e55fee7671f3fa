#!/bin/bash
# Device run of stop 43: the fused two-phase modes of ordinary buffers with split synchronisations
# (each waits for the ranks read next, and for every rank only before a region is written again)
# against full barriers, at 8 and 16 ranks bound to cores. build-dev/vsym-bench-old (3b0cf64)
# against build-dev/vsym-bench-new (the split, ../dev-2core-zen5-2026-11-28-stop43/split.patch),
# their order turning per round: vsym-bench fused --op OP for both TP x DP ops, every split with
# TP and DP over 1, f32, 16 KiB-4 MiB by 4 at 8 ranks, to 1 MiB at 16. OUT/$NAME.tgz; tables:
# ../dev-2core-zen5-2026-11-28-stop42/ab_twophase_table.py DIR (DIR: the unpacked $NAME).
#   bash results/coll/device-16core-2026-11-28-stop43/run_s43.sh  (carry build-dev)
NAME=${NAME:-s43}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench-new
for round in $(seq 1 ${ROUNDS:-2}); do
  for np in ${NPS:-8 16}; do
    if [ $((round % 2)) = 1 ]; then order="old new"; else order="new old"; fi
    e=4M
    [ "$np" -gt 8 ] && e=1M
    for v in $order; do
      for op in allreduce_allgather reducescatter_allreduce; do
        mpirun_step $v.np${np}r$round.$op $np $D/vsym-bench-$v fused --op $op --dtype f32 \
          -b 16K -e $e -f 4 -n 100
      done
    done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
