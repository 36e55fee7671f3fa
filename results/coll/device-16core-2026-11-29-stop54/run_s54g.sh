#!/bin/bash
# Stop 54 on the 16-core Intel guest: the collectives that read symmetric buffers in place (the
# all-gather, reduce-scatter, all-to-all and broadcast; from VSYM_COLL_ZEROCOPY_MIN, 4 KiB) with
# the input rewritten before each call and the output read after it (--touch --consume), against
# the same through the scratch (VSYM_COLL_ZEROCOPY_MIN=1G): f32, 4 KiB-4 MiB by 8, 2, 4, 8 and
# 16 ranks bound to cores, the two ways taking turns, one launch each.
# build-dev holds vsym-bench.new (b35e0bf) and lib/.
#   bash results/coll/device-16core-2026-11-29-stop54/run_s54g.sh   (carry build-dev)
NAME=${NAME:-s54_${TAG:-g}}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.new
B=$D/vsym-bench.new
for np in 2 4 8 16; do
  for suite in allgather reduce-scatter alltoall broadcast; do
    mpirun_step $suite.np$np.def $np $B $suite -b 4K -e 4M -f 8 --touch --consume \
      --json $R/$suite.np$np.def.jsonl
    export VSYM_COLL_ZEROCOPY_MIN=1G
    mpirun_step $suite.np$np.zc0 $np -x VSYM_COLL_ZEROCOPY_MIN $B $suite -b 4K -e 4M -f 8 \
      --touch --consume --json $R/$suite.np$np.zc0.jsonl
    unset VSYM_COLL_ZEROCOPY_MIN
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
