#!/bin/bash
# Device run of stop 28, the second: the all-reduce between 2 ranks (bound to cores) at 64 B-4 KiB
# with the low-latency protocol's default limit (VSYM_COLL_LL_MAX=-1: 1 KiB at 2 ranks), with 256 B
# and with 0 (the scratch's one-shot from the smallest size), and Open MPI's MPI_Allreduce; ROUNDS
# rounds, the four in turns; everything packed into OUT/ll2.tgz.
#   bash results/coll/device-16core-2026-11-26-stop28/run_ll2.sh   (on the device, carry build-dev)
D=$(pwd)/build-dev; R=$OUT/ll2; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH"
S="-b 64 -e 4K -f 2 -n 5000"
for r in ${ROUNDS:-1 2 3 4 5 6}; do
  for ll in -1 256 0; do
    timeout 60 $M -x VSYM_COLL_LL_MAX=$ll -np 2 $D/vsym-bench allreduce $S --check \
      > $R/ll${ll}_r$r.txt 2>&1
    echo "exit $? ll $ll r$r" >> $R/progress.txt
  done
  timeout 60 $M -np 2 $D/mpi-coll $S --only allreduce > $R/mpi_r$r.txt 2>&1
  echo "exit $? mpi r$r" >> $R/progress.txt
done
(cd $OUT && tar czf ll2.tgz ll2 && rm -rf ll2)
