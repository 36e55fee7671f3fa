#!/bin/bash
# Device run of stop 44: does OSHMEM start at 8 and 16 ranks when oshmem-coll is linked -no-pie?
# (It did not: README.md says why.) Then stop 28's comparison, one round.
#   carry build-dev: vsym-bench, mpi-coll, oshmem-coll (built by hand: benches/peers' oshcc
#   command with -no-pie), oshmem-coll-pie (as the build links it), lib/ (libcpufreq, libjansson)
#   NAME=s44 TRIES=5 bash results/coll/device-16core-2026-11-28-stop44/run_s44.sh
# 1. TRIES launches of each build in turns at 16 and at 8 ranks (a sweep of 8-64 B, OSHMEM's
#    memheap log at level 5: the segments each PE takes as its static data), into $OUT/$NAME.tgz;
# 2. run_oshmem.sh of stop 28 (vsym-bench, mpi-coll, oshmem-coll at 8 and 16 ranks, 8 B-16 MiB),
#    into $OUT/oshmem.tgz.
NAME=${NAME:-s44}
source results/coll/device_step.sh
device_setup build-dev/vsym-bench
(nproc; mpirun --version | head -1; which oshrun; ompi_info | grep -i "spml\|sshmem"
 cat /proc/sys/kernel/randomize_va_space; df -h /dev/shm) > $R/host.txt 2>&1
O="oshrun --allow-run-as-root --bind-to core --mca osc ^rdma -x LD_LIBRARY_PATH"
for np in 16 8; do
  for t in $(seq ${TRIES:-5}); do
    for b in pie nopie; do
      bin=$D/oshmem-coll; [ $b = pie ] && bin=$D/oshmem-coll-pie
      step osh_${b}_np${np}_t$t 60 $O --mca memheap_base_verbose 5 -np $np $bin -b 8 -e 64 -f 8 \
        -n 5 -w 1
    done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
ROUNDS=1 LIMIT=${LIMIT2:-380} bash results/coll/device-16core-2026-11-26-stop28/run_oshmem.sh
