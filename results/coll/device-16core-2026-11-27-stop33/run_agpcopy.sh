#!/bin/bash
# Third device run of stop 33: the all-gather of ordinary buffers between 2 ranks read with a
# process-to-process copy from 32 KiB of src a rank (build-dev/vsym-bench-ag, b654a9c) against
# the scratch path (build-dev/vsym-bench, 577a142), launches taking turns, three rounds, 16 KiB-
# 16 MiB gathered, then Open MPI twice; the 4-rank all-gather of both builds once (not 2 ranks:
# the same code). OUT/agpcopy.tgz.  bash results/coll/device-16core-2026-11-27-stop33/run_agpcopy.sh
D=$(pwd)/build-dev; R=$OUT/agpcopy; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench-ag | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH"
for round in 1 2 3; do
  for v in old new; do
    B=$D/vsym-bench; [ $v = new ] && B=$D/vsym-bench-ag
    timeout 60 $M -np 2 $B allgather -b 16K -e 1M -f 2 -n 200 --check \
      --json $R/ag_small_np2_${v}_r$round.jsonl > $R/ag_small_np2_${v}_r$round.txt 2>&1
    timeout 60 $M -np 2 $B allgather -b 2M -e 16M -f 2 -n 40 --check \
      --json $R/ag_large_np2_${v}_r$round.jsonl > $R/ag_large_np2_${v}_r$round.txt 2>&1
    echo "exit $? $(date +%T) $v r$round" >> $R/progress.txt
  done
done
for round in 1 2; do
  timeout 60 $M -np 2 $D/mpi-coll -b 16K -e 16M -f 2 -n 100 --only allgather \
    --json $R/mpi_np2_r$round.jsonl > $R/mpi_np2_r$round.txt 2>&1
done
echo "exit $? $(date +%T) mpi" >> $R/progress.txt
(cd $OUT && tar czf agpcopy.tgz agpcopy && rm -rf agpcopy)
