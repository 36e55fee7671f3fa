#!/bin/bash
# Device run 4 (commit 17f99b8): all-reduce 16 B .. 64 MiB at 2, 4, 8, 16 ranks next to Open MPI
# and memcpy, with the LL protocol's default limit by team size; a second round of the small sizes
# (16 B .. 64 KiB, both programs) for noise; the f32 fused suite at 4 ranks with autotune.
D=$(cd "$(dirname "$0")" && pwd); R=$OUT/r4; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib${EXTRA_LD:+:$EXTRA_LD}
M="mpirun --allow-run-as-root -np"
MB="--bind-to core -x LD_LIBRARY_PATH"
pack() { (cd $OUT && tar czf r4.tgz r4); }
t() { local lim=$1; shift; timeout $lim "$@"; echo "exit $? $(date +%T): $*" >> $R/progress.txt; }
(nproc; lscpu | head -20; uname -a; mpirun --version | head -1; ldd $D/vsym-bench | grep "not found") > $R/host.txt 2>&1
t 60 $D/memcpy-bench -b 4K -e 64M -f 4 --json $R/memcpy.jsonl > $R/memcpy.txt 2>&1
for np in 2 4 8 16; do
  t 60 $M $np $MB $D/mpi-coll -b 16 -e 64M -f 4 --only allreduce --json $R/mpi_np$np.jsonl > $R/mpi_np$np.txt 2>&1
  t 80 $M $np $MB $D/vsym-bench allreduce -b 16 -e 64M -f 4 --check --json $R/vsym_allreduce_np$np.jsonl > $R/vsym_allreduce_np$np.txt 2>&1
  t 40 $M $np $MB $D/mpi-coll -b 16 -e 64K -f 4 --only allreduce --json $R/mpi_small_np$np.jsonl > $R/mpi_small_np$np.txt 2>&1
  t 40 $M $np $MB $D/vsym-bench allreduce -b 16 -e 64K -f 4 --json $R/vsym_small_np$np.jsonl > $R/vsym_small_np$np.txt 2>&1
  pack
done
t 150 $M 4 $MB -x VSYM_AUTOTUNE_FILE=$R/autotune_np4.txt $D/vsym-bench fused --dtype f32 -b 1K -e 4M -f 4 --check --json $R/vsym_fused_f32_np4.jsonl > $R/vsym_fused_f32_np4.txt 2>&1
pack
