#!/bin/bash
# Device run of stop 47, second: a copy of each LL publication per reader (no line with more than
# one reader) with and without the writer taking the next region's lines for writing. One build of
# main's 60e3bcf with llcp.patch (beside this script; not in main), which reads LLCP (1: copies
# beyond 2 ranks where they fit the slot) and LLPWN (1: PREFETCHW of the next region beyond 2
# ranks too, all its lines up to LLPWC, 64). Variants in turns each round: base (neither), cp
# (copies), cppw (both). ROUNDS rounds (5), ranks bound to cores, f32: the all-reduce at 4, 8 and
# 16 ranks (16 B-1 KiB by 2), the broadcast (16 B-1 KiB by 4), the fused pairs at 8 and 16 ranks
# (64 B-1 KiB by 4). OUT/$NAME.tgz.
#   bash results/coll/device-16core-2026-11-28-stop47/run_s47b.sh  (carry build-dev)
NAME=${NAME:-s47b}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench
for round in $(seq 1 ${ROUNDS:-3}); do
  for v in base cp cppw; do
    case $v in base) export LLCP=0 LLPWN=0 ;; cp) export LLCP=1 LLPWN=0 ;; cppw) export LLCP=1 LLPWN=1 ;; esac
    for np in 4 8 16; do
      mpirun_step ar.np${np}r$round.$v $np -x LLCP -x LLPWN $D/vsym-bench allreduce -b 16 -e 1K \
        -f 2 --check --json $R/ar.np${np}r$round.$v.jsonl
      mpirun_step bc.np${np}r$round.$v $np -x LLCP -x LLPWN $D/vsym-bench broadcast -b 16 -e 1K \
        -f 4 --check --json $R/bc.np${np}r$round.$v.jsonl
    done
    for np in 8 16; do
      for op in allreduce_allgather reducescatter_allreduce; do
        mpirun_step fu.np${np}r$round.$op.$v $np -x LLCP -x LLPWN $D/vsym-bench fused --op $op \
          --dtype f32 -b 64 -e 1K -f 4 --check --json $R/fu.np${np}r$round.$op.$v.jsonl
      done
    done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
