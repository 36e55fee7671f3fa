#!/bin/bash
# Second device run of stop 52 (16-core Intel guest): the fused pairs with the benchmark's
# buffers written first (582aeba, benches/inputs.h; before, vsym-bench fused timed ordinary
# buffers never written: the kernel's zero page), 16 and 8 ranks bound to cores, f16, 512 B-256
# KiB by 8, --check, AUTO from the size rule (no table): per round and rank count each op in its
# own launch, then Open MPI's TP-then-DP sequences (mpi-coll --only fused, float).
# build-dev holds vsym-bench.new, mpi-coll.new and lib/.
#   FROM=1 TO=2 bash results/coll/device-16core-2026-11-29-stop52/run_s52b.sh   (carry build-dev)
NAME=${NAME:-s52b_${FROM:-1}}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.new
for round in $(seq ${FROM:-1} ${TO:-2}); do
  for np in 16 8; do
    for op in allreduce_allgather reducescatter_allreduce; do
      mpirun_step fused.$op.np$np.r$round $np $D/vsym-bench.new fused --op $op -b 512 -e 256K \
        -f 8 --check --json $R/fused.$op.np$np.r$round.jsonl
    done
    mpirun_step mpi.np$np.r$round $np $D/mpi-coll.new -b 512 -e 256K -f 8 --only fused \
      --json $R/mpi.np$np.r$round.jsonl
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
