#!/bin/bash
# Stop 58 on the 16-core Intel guest: where issue 5's targets stand at main's e1e53e9, ranks
# bound to cores, one launch each:
#  a) the all-reduce, f32, 8 B-64 MiB by 4, 2, 4, 8 and 16 ranks: vsym-bench (ordinary and
#     symmetric buffers, out of place and in place) and mpi-coll (Open MPI's MPI_Allreduce),
#     taking turns;
#  b) the fused suite, f16, 8 B-256 KiB by 8, 4, 8 and 16 ranks (every TP x DP split), AUTO from
#     an autotune table the launch makes first (VSYM_AUTOTUNE_FILE, a fresh file each), --check;
#     twice, and once more with the input rewritten before each call and the output read after
#     it (--touch --consume).
# build-dev holds vsym-bench and mpi-coll (built on the 2-vCPU host), lib/ and lib-pmix/.
#   bash results/coll/device-16core-2026-12-02-stop58/run_s58.sh   (carry build-dev)
NAME=${NAME:-s58}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench
B=$D/vsym-bench
for np in 2 4 8 16; do
  mpirun_step ar.np$np.vsym $np $B allreduce -b 8 -e 64M -f 4 --json $R/ar.np$np.vsym.jsonl
  mpirun_step ar.np$np.mpi $np $D/mpi-coll --only allreduce -b 8 -e 64M -f 4 \
    --json $R/ar.np$np.mpi.jsonl
done
fused() { # label np extra...
  local l=$1 np=$2; shift 2
  export VSYM_AUTOTUNE_FILE=$R/at.$l.np$np.txt
  step fused.$l.np$np 120 mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH \
    -x VSYM_AUTOTUNE_FILE -np $np $B fused -b 8 -e 256K -f 8 --dtype f16 --check "$@" \
    --json $R/fused.$l.np$np.jsonl
}
for np in 4 8 16; do fused r1 $np; done
for np in 4 8 16; do fused tc $np --touch --consume; done
for np in 4 8 16; do fused r2 $np; done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
