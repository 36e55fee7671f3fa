#!/bin/bash
# Device run of stop 44, the second: OSHMEM's start at 8 and 16 ranks with glibc's malloc kept
# to one arena (MALLOC_ARENA_MAX=1: no per-thread arena mappings) against without, TRIES launches
# each in turns (memheap log at level 5), into $OUT/$NAME.tgz; then stop 28's comparison
# (run_oshmem.sh: vsym-bench, mpi-coll, oshmem-coll), one round, every program under the setting.
#   carry build-dev (vsym-bench, mpi-coll, oshmem-coll, lib/); NAME=s44b TRIES=5 bash run_s44b.sh
NAME=${NAME:-s44b}
source results/coll/device_step.sh
device_setup build-dev/vsym-bench
O="oshrun --allow-run-as-root --bind-to core --mca osc ^rdma -x LD_LIBRARY_PATH"
for np in 16 8; do
  for t in $(seq ${TRIES:-5}); do
    for a in 0 1; do
      x=""; [ $a = 1 ] && x="-x MALLOC_ARENA_MAX=1"
      step osh_arena${a}_np${np}_t$t 60 $O $x --mca memheap_base_verbose 5 \
        -np $np $D/oshmem-coll -b 8 -e 64 -f 8 -n 5 -w 1
    done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
export MALLOC_ARENA_MAX=1
ROUNDS=1 LIMIT=${LIMIT2:-380} bash results/coll/device-16core-2026-11-26-stop28/run_oshmem.sh
