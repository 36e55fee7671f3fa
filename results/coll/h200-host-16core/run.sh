#!/bin/bash
# The collectives' benchmark run on a 16-core host: vsym-bench next to Open MPI (mpi-coll) and
# memcpy, 2 and 4 ranks bound to cores; the fused suite with autotune (table saved).
D=$(cd "$(dirname "$0")" && pwd); OUT=$1; R=$OUT/r; mkdir -p $R
export LD_LIBRARY_PATH=$D:$LD_LIBRARY_PATH
M="mpirun --allow-run-as-root -np"
MB="--bind-to core -x LD_LIBRARY_PATH"
(nproc; lscpu | head -20; uname -a; mpirun --version | head -1) > $R/host.txt 2>&1
$D/memcpy-bench -b 4K -e 64M -f 4 --json $R/memcpy.jsonl > $R/memcpy.txt 2>&1
for np in 2 4; do
  $M $np $MB $D/mpi-coll -b 8 -e 64M -f 4 --json $R/mpi_np$np.jsonl > $R/mpi_np$np.txt 2>&1
  for s in allreduce allgather reduce-scatter broadcast alltoall; do
    $M $np $MB $D/vsym-bench $s -b 8 -e 64M -f 4 --check --json $R/vsym_${s}_np$np.jsonl > $R/vsym_${s}_np$np.txt 2>&1
  done
done
$M 4 $MB $D/mpi-coll -b 1K -e 16M -f 4 --only fused --json $R/mpi_fused_np4.jsonl > $R/mpi_fused_np4.txt 2>&1
for np in 4 2; do
  for dt in f32 bf16; do
    $M $np $MB -x VSYM_AUTOTUNE_FILE=$R/autotune_np${np}.txt $D/vsym-bench fused --dtype $dt -b 1K -e 16M -f 4 --check --json $R/vsym_fused_${dt}_np$np.jsonl > $R/vsym_fused_${dt}_np$np.txt 2>&1
  done
done
cp $D/run6.sh $R/
cd $OUT && tar czf results.tgz r
