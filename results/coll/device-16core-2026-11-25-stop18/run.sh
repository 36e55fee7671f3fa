#!/bin/bash
# Device run (stop 18): the fused TP x DP pairs after the reduce-scatter flavours' low-latency
# exchange reads only the block each rank needs (lib/coll/fused.c, run_oneshot): every TP x DP
# split of 4, 8 and 16 ranks, f32, 64 B - 1 MiB, each mode the median of three interleaved turns
# (the suite's own rounds), --check; then the same at 8 ranks with an autotune table made
# in the run (VSYM_AUTOTUNE_FILE), so that "auto" is the tuned choice; then the copy service
# next to its put references at 8 and 16 ranks. Run from the repository
# root with the binaries and libraries in build-dev/: build-dev/run.sh (OUT set by the device).
D=$(cd "$(dirname "$0")" && pwd); R=$OUT/r1; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
M="mpirun --allow-run-as-root -np"
MB="--bind-to core -x LD_LIBRARY_PATH -x VSYM_AUTOTUNE_FILE"
pack() { (cd $OUT && tar czf r1.tgz r1); }
t() { local lim=$1; shift; timeout $lim "$@"; echo "exit $? $(date +%T): ${*: -6}" >> $R/progress.txt; }
nproc > $R/host.txt; lscpu | grep -E "Model name|L3" >> $R/host.txt; mpirun --version | head -1 >> $R/host.txt
export VSYM_AUTOTUNE_FILE=
for np in 4 8 16; do
  lim=40; [ $np = 8 ] && lim=50; [ $np = 16 ] && lim=100
  t $lim $M $np $MB $D/vsym-bench fused --dtype f32 --op reducescatter_allreduce -b 64 -e 1M -f 4 -n 200 -w 20 --check --json $R/rsar_np$np.jsonl > $R/rsar_np$np.txt 2>&1
  t $lim $M $np $MB $D/vsym-bench fused --dtype f32 --op allreduce_allgather -b 64 -e 1M -f 4 -n 200 -w 20 --check --json $R/arag_np$np.jsonl > $R/arag_np$np.txt 2>&1
  pack
done
export VSYM_AUTOTUNE_FILE=$R/tune_np8.txt
t 50 $M 8 $MB $D/vsym-bench fused --dtype f32 --op reducescatter_allreduce -b 64 -e 1M -f 4 -n 200 -w 20 --json $R/rsar_tuned_np8.jsonl > $R/rsar_tuned_np8.txt 2>&1
t 40 $M 8 $MB $D/vsym-bench fused --dtype f32 --op allreduce_allgather -b 64 -e 1M -f 4 -n 200 -w 20 --json $R/arag_tuned_np8.jsonl > $R/arag_tuned_np8.txt 2>&1
export VSYM_AUTOTUNE_FILE=
pack
# Issue 6: the copy service next to the single-peer put alone (the busiest rank's bytes) and
# under load, the four taking turns run by run (benches/suite_copy.c since stop 18).
t 25 $M 8 $MB $D/vsym-bench copy --pattern ring -s 64M -n 10 -w 2 --check --json $R/copy_ring_np8.jsonl > $R/copy_ring_np8.txt 2>&1
t 25 $M 16 $MB $D/vsym-bench copy --pattern ring -s 64M -n 10 -w 2 --check --json $R/copy_ring_np16.jsonl > $R/copy_ring_np16.txt 2>&1
t 25 $M 16 $MB $D/vsym-bench copy --pattern alltoall -s 8M -n 10 -w 2 --check --json $R/copy_alltoall_np16.jsonl > $R/copy_alltoall_np16.txt 2>&1
pack
