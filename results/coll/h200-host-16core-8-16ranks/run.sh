#!/bin/bash
# 8 and 16 ranks on the 16-core host: all-reduce vs Open MPI; fused (f32, no autotune) at 8.
D=$(cd "$(dirname "$0")" && pwd); OUT=$1; R=$OUT/r; mkdir -p $R
export LD_LIBRARY_PATH=$D:$LD_LIBRARY_PATH
M="mpirun --allow-run-as-root -np"
MB="--bind-to core -x LD_LIBRARY_PATH"
pack() { (cd $OUT && tar czf results.tgz r); }
(nproc; uname -a; mpirun --version | head -1) > $R/host.txt 2>&1
$D/memcpy-bench -b 4K -e 64M -f 4 --json $R/memcpy.jsonl > $R/memcpy.txt 2>&1
for np in 8 16; do
  timeout 60 $M $np $MB $D/mpi-coll -b 8 -e 64M -f 4 --only allreduce --json $R/mpi_np$np.jsonl > $R/mpi_np$np.txt 2>&1
  timeout 90 $M $np $MB $D/vsym-bench allreduce -b 8 -e 64M -f 4 --check --json $R/vsym_allreduce_np${np}.jsonl > $R/vsym_allreduce_np${np}.txt 2>&1
  pack
done
timeout 60 $M 8 $MB $D/mpi-coll -b 1K -e 4M -f 4 --only fused --json $R/mpi_fused_np8.jsonl > $R/mpi_fused_np8.txt 2>&1
timeout 120 $M 8 $MB $D/vsym-bench fused --dtype f32 -b 1K -e 4M -f 4 --op allreduce_allgather --check --json $R/vsym_fused_f32_np8.jsonl > $R/vsym_fused_f32_np8.txt 2>&1
cp $D/run8.sh $R/run.sh
pack
