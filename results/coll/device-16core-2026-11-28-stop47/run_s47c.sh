#!/bin/bash
# Device run of stop 47, third: CLDEMOTE on the LL protocol's lines (a hint that moves a line from
# the core's caches to the shared L3; a no-op where the CPU lacks it, as on the AMD hosts). One
# build of main's be54731 with lldemote.patch (beside this script; not in main): LLDW 1, the
# writer demotes each line after storing its flag; LLDR 1, a reader demotes each line after
# unpacking it. Variants in turns each round: base (neither), dw, dr, dwr (both). ROUNDS rounds
# (5), ranks bound to cores, f32: the all-reduce at 2, 4, 8 and 16 ranks (16 B-1 KiB by 2), the
# broadcast at 4, 8, 16 (16 B-1 KiB by 4), the fused pairs at 8 and 16 ranks (64 B-1 KiB by 4).
# OUT/$NAME.tgz.   bash results/coll/device-16core-2026-11-28-stop47/run_s47c.sh  (carry build-dev)
NAME=${NAME:-s47c}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench
for round in $(seq 1 ${ROUNDS:-3}); do
  for v in base dw dr dwr; do
    case $v in base) export LLDW=0 LLDR=0 ;; dw) export LLDW=1 LLDR=0 ;;
      dr) export LLDW=0 LLDR=1 ;; dwr) export LLDW=1 LLDR=1 ;; esac
    for np in 2 4 8 16; do
      mpirun_step ar.np${np}r$round.$v $np -x LLDW -x LLDR $D/vsym-bench allreduce -b 16 -e 1K \
        -f 2 --check --json $R/ar.np${np}r$round.$v.jsonl
      [ $np = 2 ] && continue
      mpirun_step bc.np${np}r$round.$v $np -x LLDW -x LLDR $D/vsym-bench broadcast -b 16 -e 1K \
        -f 4 --check --json $R/bc.np${np}r$round.$v.jsonl
    done
    for np in 8 16; do
      for op in allreduce_allgather reducescatter_allreduce; do
        mpirun_step fu.np${np}r$round.$op.$v $np -x LLDW -x LLDR $D/vsym-bench fused --op $op \
          --dtype f32 -b 64 -e 1K -f 4 --check --json $R/fu.np${np}r$round.$op.$v.jsonl
      done
    done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
