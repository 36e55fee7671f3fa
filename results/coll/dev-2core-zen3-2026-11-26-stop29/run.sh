#!/bin/bash
# Stop 29 on the 2-core development host: the all-to-all of ordinary buffers through
# process-to-process copies (the default, VSYM_COLL_PCOPY_MIN=1M, here set to 64K to show the
# smaller sizes too) against the scratch's two copies (VSYM_COLL_PCOPY_MIN=0) and Open MPI's
# MPI_Alltoall, 2 and 4 ranks, 64 KiB-16 MiB of src (x4), three rounds, the three programs
# taking turns; the kernel's copy against memcpy first (../device-16core-2026-11-26-stop29/
# cma_probe.c). Writes OUT (default ./out) and its tables (../device-16core-2026-11-26-stop29/
# tables.py, run inside OUT).
#   bash results/coll/dev-2core-zen3-2026-11-26-stop29/run.sh   (from the project root, built)
B=$(pwd)/build; OUT=${OUT:-$(pwd)/out}; mkdir -p $OUT
H=$(cd "$(dirname "$0")" && pwd)
gcc -O2 -o $OUT/cma_probe $H/../device-16core-2026-11-26-stop29/cma_probe.c
for s in 1048576 4194304 16777216; do $OUT/cma_probe $s >> $OUT/cma_probe.txt; done
rm -f $OUT/cma_probe
M="mpirun --allow-run-as-root --oversubscribe"
S="-b 64K -e 16M -f 4 -n 20"
for r in 1 2 3; do
  for np in 2 4; do
    $M -x VSYM_COLL_PCOPY_MIN=64K -np $np $B/benches/vsym-bench alltoall $S --check \
      --json $OUT/pcopy_np${np}_r$r.jsonl > $OUT/pcopy_np${np}_r$r.txt 2>&1
    $M -x VSYM_COLL_PCOPY_MIN=0 -np $np $B/benches/vsym-bench alltoall $S --check \
      --json $OUT/scratch_np${np}_r$r.jsonl > $OUT/scratch_np${np}_r$r.txt 2>&1
    $M -np $np $B/benches/peers/mpi-coll $S --only alltoall --json $OUT/mpi_np${np}_r$r.jsonl \
      > $OUT/mpi_np${np}_r$r.txt 2>&1
  done
done
(cd $OUT && python3 $H/../device-16core-2026-11-26-stop29/tables.py > tables.txt)
