#!/bin/bash
# Device run 8: all-reduce 256 KiB .. 64 MiB at 2, 4, 8, 16 ranks (symmetric buffers push their
# reduced blocks: commit a0b32f0) next to Open MPI and memcpy; two interleaved rounds.
D=$(cd "$(dirname "$0")" && pwd); R=$OUT/r8; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib${EXTRA_LD:+:$EXTRA_LD}
M="mpirun --allow-run-as-root -np"
MB="--bind-to core -x LD_LIBRARY_PATH"
pack() { (cd $OUT && tar czf r8.tgz r8); }
t() { local lim=$1; shift; timeout $lim "$@"; echo "exit $? $(date +%T): $*" >> $R/progress.txt; }
t 60 $D/memcpy-bench -b 64K -e 64M -f 4 --json $R/memcpy.jsonl > $R/memcpy.txt 2>&1
for round in 1 2; do
  for np in 2 4 8 16; do
    t 60 $M $np $MB $D/mpi-coll -b 256K -e 64M -f 4 --only allreduce --json $R/mpi_np${np}_r$round.jsonl > $R/mpi_np${np}_r$round.txt 2>&1
    t 80 $M $np $MB $D/vsym-bench-new allreduce -b 256K -e 64M -f 4 --check --json $R/vsym_allreduce_np${np}_r$round.jsonl > $R/vsym_allreduce_np${np}_r$round.txt 2>&1
  done
  pack
done
