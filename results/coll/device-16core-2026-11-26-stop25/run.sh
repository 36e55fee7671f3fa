#!/bin/bash
# Device run of stop 25 on the 16-core host (binaries and libraries in build-dev/, OUT set by
# the device; everything is packed into OUT/run.tgz): the collectives other than the all-reduce
# (all-gather, reduce-scatter, broadcast, all-to-all) and the all-reduce, 8 and 16 ranks bound
# to cores, 8 B-16 MiB (x8), --check, each record naming the path the library ran; Open MPI's
# collectives (mpi-coll) on the same sizes; ROUNDS rounds, the programs taking turns.
#   run 1: build-dev/run.sh (at 720d62e);  run 2: TAG=run2 KINDS="allgather alltoall" build-dev/run.sh
#   (after the all-gather and all-to-all read symmetric src buffers in place; their suites then
#   also sweep symmetric buffers);  run 3: TAG=run3 KINDS=reduce-scatter FUSED=1 build-dev/run.sh
#   (after the reduce-scatter reads symmetric src buffers in place: the reduce-scatter, then the
#   fused reduce-scatter + all-reduce, whose baseline is that reduce-scatter then an all-reduce,
#   every TP x DP split, ordinary and symmetric buffers, one launch per rank count).
#   Stop 26: TAG=bcast KINDS=broadcast ROUNDS="1 2 3" LIMIT=480 (after the broadcast into
#   symmetric dst buffers copies straight from the root's memory; ../device-16core-2026-11-26-stop26).
#   LIMIT: seconds for the whole run.
TAG=${TAG:-run}; KINDS=${KINDS:-allgather reduce-scatter broadcast alltoall allreduce}
D=$(cd "$(dirname "$0")" && pwd); R=$OUT; mkdir -p $R/$TAG
ROUNDS=${ROUNDS:-1 2}; NPS=${NPS:-8 16}; LIMIT=${LIMIT:-540}
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
nproc > $R/$TAG/host.txt; lscpu | grep -E "Model name|L3|NUMA" >> $R/$TAG/host.txt
mpirun --version | head -1 >> $R/$TAG/host.txt
echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH" >> $R/$TAG/host.txt
ldd $D/vsym-bench $D/mpi-coll | grep -E "pmix|mpi|not found" >> $R/$TAG/host.txt
start=$(date +%s)
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH -np"
for r in $ROUNDS; do
  for np in $NPS; do
    for k in $KINDS; do
      t=$(left); [ $t -lt 20 ] && { echo "skip $k np $np r$r: $t s left" >> $R/$TAG/progress.txt; continue; }
      [ $t -gt 60 ] && t=60
      timeout $t $M $np $D/vsym-bench $k -b 8 -e 16M -f 8 --check \
        --json $R/$TAG/vsym_${k}_np${np}_r$r.jsonl > $R/$TAG/vsym_${k}_np${np}_r$r.txt 2>&1
      echo "exit $? $(date +%T) vsym $k np $np r$r" >> $R/$TAG/progress.txt
    done
    t=$(left); [ $t -lt 20 ] && { echo "skip mpi np $np r$r: $t s left" >> $R/$TAG/progress.txt; continue; }
    [ $t -gt 90 ] && t=90
    for k in $KINDS; do
      timeout $t $M $np $D/mpi-coll -b 8 -e 16M -f 8 --only $k \
        --json $R/$TAG/mpi_${k}_np${np}_r$r.jsonl > $R/$TAG/mpi_${k}_np${np}_r$r.txt 2>&1
      echo "exit $? $(date +%T) mpi $k np $np r$r" >> $R/$TAG/progress.txt
    done
  done
done
if [ -n "${FUSED:-}" ]; then
  for np in $NPS; do
    t=$(left); [ $t -lt 30 ] && { echo "skip fused np $np: $t s left" >> $R/$TAG/progress.txt; continue; }
    timeout $t $M $np $D/vsym-bench fused --dtype f32 --op reducescatter_allreduce -b 64 -e 1M -f 4 \
      --check --json $R/$TAG/fused_np$np.jsonl > $R/$TAG/fused_np$np.txt 2>&1
    echo "exit $? $(date +%T) fused np $np" >> $R/$TAG/progress.txt
  done
fi
(cd $R && tar czf $TAG.tgz $TAG && rm -rf $TAG)
