#!/bin/bash
# Stop 54's check of its rules on the 16-core Intel guest, input rewritten before each call and
# output read after it (--touch --consume), ranks bound to cores, one launch each:
#  a) the all-reduce, f32, 4 KiB-16 MiB by 4, 2, 4, 8 and 16 ranks: vsym-bench (VSYM_COLL_ZEROCOPY_MIN
#     auto) and mpi-coll (Open MPI's MPI_Allreduce), taking turns;
#  b) the fused pairs, f16, 4 and 8 ranks, 1 KiB-1 MiB by 4, -n 200 --check: AUTO by the rule
#     against the baseline.
# build-dev holds vsym-bench.new and mpi-coll (stop 54's tree after its rules) and lib/.
#   bash results/coll/device-16core-2026-11-29-stop54/run_s54v.sh   (carry build-dev)
NAME=${NAME:-s54_${TAG:-v}}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.new
B=$D/vsym-bench.new
for np in 2 4 8 16; do
  mpirun_step ar.np$np.vsym $np $B allreduce -b 4K -e 16M -f 4 --touch --consume \
    --json $R/ar.np$np.vsym.jsonl
  mpirun_step ar.np$np.mpi $np $D/mpi-coll --only allreduce -b 4K -e 16M -f 4 --touch --consume \
    --json $R/ar.np$np.mpi.jsonl
done
for np in 4 8; do
  for op in allreduce_allgather reducescatter_allreduce; do
    mpirun_step fused.$op.np$np $np $B fused --op $op -b 1K -e 1M -f 4 --dtype f16 -n 200 \
      --check --touch --consume --json $R/fused.$op.np$np.jsonl
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
