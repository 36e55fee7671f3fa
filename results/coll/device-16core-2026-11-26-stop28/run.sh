#!/bin/bash
# Device run of stop 28 on the 16-core host (binaries and libraries in build-dev/, OUT set by the
# device; everything packed into OUT/bcast.tgz): the broadcast beyond 2 ranks through the
# low-latency protocol up to 4 KiB (the default now) against the limit it had before (256 B,
# VSYM_COLL_LL_MAX=256, which leaves every other collective as it is at these team sizes), and
# Open MPI's MPI_Bcast; 4, 8 and 16 ranks bound to cores, 8 B-64 KiB (x2), --check on the vsym
# rows, ROUNDS rounds, the three programs taking turns.
#   bash results/coll/device-16core-2026-11-26-stop28/run.sh   (on the device, carry build-dev)
D=$(pwd)/build-dev; R=$OUT/bcast; mkdir -p $R
ROUNDS=${ROUNDS:-1 2 3}; NPS=${NPS:-4 8 16}; LIMIT=${LIMIT:-480}
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
nproc > $R/host.txt; lscpu | grep -E "Model name|L3|NUMA" >> $R/host.txt
mpirun --version | head -1 >> $R/host.txt
ldd $D/vsym-bench $D/mpi-coll | grep -E "pmix|mpi|not found" >> $R/host.txt
start=$(date +%s)
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH"
S="-b 8 -e 64K -f 2"
for r in $ROUNDS; do
  for np in $NPS; do
    t=$(left); [ $t -lt 30 ] && { echo "skip np $np r$r: $t s left" >> $R/progress.txt; continue; }
    timeout 60 $M -np $np $D/vsym-bench broadcast $S --check --json $R/ll4k_np${np}_r$r.jsonl \
      > $R/ll4k_np${np}_r$r.txt 2>&1
    echo "exit $? $(date +%T) ll4k np $np r$r" >> $R/progress.txt
    timeout 60 $M -x VSYM_COLL_LL_MAX=256 -np $np $D/vsym-bench broadcast $S --check \
      --json $R/ll256_np${np}_r$r.jsonl > $R/ll256_np${np}_r$r.txt 2>&1
    echo "exit $? $(date +%T) ll256 np $np r$r" >> $R/progress.txt
    timeout 60 $M -np $np $D/mpi-coll $S --only broadcast --json $R/mpi_np${np}_r$r.jsonl \
      > $R/mpi_np${np}_r$r.txt 2>&1
    echo "exit $? $(date +%T) mpi np $np r$r" >> $R/progress.txt
  done
done
(cd $OUT && tar czf bcast.tgz bcast && rm -rf bcast)
