#!/bin/bash
# Device run of stop 42: the fused two-phase modes publishing only what peers read, at 8 and 16
# ranks bound to cores. build-dev/vsym-bench-old (3705702) against build-dev/vsym-bench-new
# (9031a61), their order turning per round: vsym-bench fused --op OP for both TP x DP ops, every
# split with TP and DP over 1, f32, 16 KiB-4 MiB by 4. OUT/$NAME.tgz; tables:
# ../dev-2core-zen5-2026-11-28-stop42/ab_twophase_table.py DIR (DIR: the unpacked $NAME).
# E16: the last size at more than 8 ranks (4M; stop 43's run_s43.sh sets 1M).
#   bash results/coll/device-16core-2026-11-28-stop42/run_s42.sh  (carry build-dev)
NAME=${NAME:-s42}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench-new
for round in $(seq 1 ${ROUNDS:-3}); do
  for np in ${NPS:-8 16}; do
    if [ $((round % 2)) = 1 ]; then order="old new"; else order="new old"; fi
    e=4M
    [ "$np" -gt 8 ] && e=${E16:-4M}
    for v in $order; do
      for op in allreduce_allgather reducescatter_allreduce; do
        mpirun_step $v.np${np}r$round.$op $np $D/vsym-bench-$v fused --op $op --dtype f32 \
          -b 16K -e $e -f 4 -n 100
      done
    done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
