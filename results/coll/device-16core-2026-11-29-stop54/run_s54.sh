#!/bin/bash
# Stop 54's device run (16-core Intel guest): the result read after each call (vsym-bench
# --consume: a load of every line of dst, timed) with the input rewritten before it (--touch).
#  a) the all-reduce, 2, 4, 8 and 16 ranks, f32, 4 KiB-4 MiB by 4: --touch --consume with the
#     library's paths (symmetric buffers in place from 4 KiB) and with VSYM_COLL_ZEROCOPY_MIN=1G
#     (symmetric buffers through the scratch as ordinary ones), and --touch alone;
#  b) the fused pairs, 4 and 8 ranks, f16, 1 KiB-1 MiB by 4, -n 200, --check, every TP x DP split:
#     --touch --consume and --touch alone, taking turns.
# build-dev holds vsym-bench.new (stop 54's tree: --consume) and lib/.
#   bash results/coll/device-16core-2026-11-29-stop54/run_s54.sh   (carry build-dev)
#   TAG=b REV=1 bash ...   (the second round, the ways in the reverse order)
NAME=${NAME:-s54_${TAG:-a}}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.new
B=$D/vsym-bench.new
# REV=1 (the second round, TAG=b): each step's ways in the reverse order.
WAYS="tc tc.zc0 t"; [ "$REV" = 1 ] && WAYS="t tc.zc0 tc"
for np in 2 4 8 16; do
  for w in $WAYS; do
    x="--touch --consume"; [ $w = t ] && x=--touch
    if [ $w = tc.zc0 ]; then
      export VSYM_COLL_ZEROCOPY_MIN=1G
      mpirun_step ar.np$np.$w $np -x VSYM_COLL_ZEROCOPY_MIN $B allreduce -b 4K -e 4M -f 4 $x \
        --json $R/ar.np$np.$w.jsonl
      unset VSYM_COLL_ZEROCOPY_MIN
    else
      mpirun_step ar.np$np.$w $np $B allreduce -b 4K -e 4M -f 4 $x --json $R/ar.np$np.$w.jsonl
    fi
  done
done
FWAYS="tc t"; [ "$REV" = 1 ] && FWAYS="t tc"
for np in 4 8; do
  for op in allreduce_allgather reducescatter_allreduce; do
    for t in $FWAYS; do
      x="--touch --consume"; [ $t = t ] && x=--touch
      mpirun_step fused.$op.np$np.$t $np $B fused --op $op -b 1K -e 1M -f 4 --dtype f16 \
        -n 200 --check $x --json $R/fused.$op.np$np.$t.jsonl
    done
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
