#!/bin/bash
# Device run of stop 28, the third: vsym's collectives next to Open MPI's MPI (mpi-coll) and
# OSHMEM (oshmem-coll) ones at 8 and 16 ranks bound to cores: all-reduce, all-gather, broadcast,
# all-to-all, 8 B-16 MiB (x8), f32, ROUNDS rounds with the three programs in turns; packed into
# OUT/oshmem.tgz. ../dev-2core-zen3-2026-11-26-stop28/oshmem/tables.py reads it (NPS=8,16).
#   bash results/coll/device-16core-2026-11-26-stop28/run_oshmem.sh   (on the device, carry build-dev)
D=$(pwd)/build-dev; R=$OUT/oshmem; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib
(nproc; lscpu | grep -E "Model name|L3"; mpirun --version | head -1; which oshrun) > $R/host.txt 2>&1
ldd $D/oshmem-coll | grep -E "oshmem|not found" >> $R/host.txt
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH"
S="-b 8 -e 16M -f 8"; start=$(date +%s); LIMIT=${LIMIT:-500}
for r in ${ROUNDS:-1 2}; do
  for np in 8 16; do
    [ $(( $(date +%s) - start )) -gt $LIMIT ] && { echo "skip np $np r$r" >> $R/progress.txt; continue; }
    for k in allreduce allgather broadcast alltoall; do
      timeout 60 $M -np $np $D/vsym-bench $k $S --check > $R/vsym_${k}_np${np}_r$r.txt 2>&1
      echo "exit $? vsym $k np $np r$r" >> $R/progress.txt
      timeout 60 $M -np $np $D/mpi-coll $S --only $k > $R/mpi_${k}_np${np}_r$r.txt 2>&1
      echo "exit $? mpi $k np $np r$r" >> $R/progress.txt
    done
    timeout 120 oshrun --allow-run-as-root --bind-to core --mca osc ^rdma -x LD_LIBRARY_PATH \
      -np $np $D/oshmem-coll $S > $R/oshmem_np${np}_r$r.txt 2>&1
    echo "exit $? oshmem np $np r$r" >> $R/progress.txt
  done
done
(cd $OUT && tar czf oshmem.tgz oshmem && rm -rf oshmem)
