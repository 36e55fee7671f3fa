#!/bin/bash
# Stop 30 on the 2-core development host (AMD EPYC family 25 model 17): the broadcast and the
# all-gather of ordinary buffers with their publishes into the scratch streamed (non-temporal
# stores) from every size (VSYM_COLL_STREAM_MIN=1), never (0) and by the default rule (auto:
# on AMD broadcast from 32 KiB, all-gather from 512 KiB per rank), next to Open MPI's MPI_Bcast
# and MPI_Allgather, 2 and 4 ranks, 8 KiB-32 MiB (x4), three rounds, the four taking turns.
# Writes OUT (default ./out)/stream and its tables (../device-16core-2026-11-27-stop30/tables.py).
#   bash results/coll/dev-2core-zen4-2026-11-27-stop30/run.sh   (from the project root, built)
B=$(pwd)/build; OUT=${OUT:-$(pwd)/out}; R=$OUT/stream; mkdir -p $R
H=$(cd "$(dirname "$0")" && pwd)
(nproc; lscpu | grep -E "Model name|L2|L3"; grep -m1 -E "^model\s" /proc/cpuinfo;
 mpirun --version | head -1) > $R/host.txt 2>&1
M="mpirun --allow-run-as-root --oversubscribe"
S="-b 8K -e 32M -f 4 -n 40"
for r in 1 2 3; do
  for np in 2 4; do
    for c in broadcast allgather; do
      for v in 1 0 auto; do
        $M -x VSYM_COLL_STREAM_MIN=$v -np $np $B/benches/vsym-bench $c $S --check \
          --json $R/s${v}_${c}_np${np}_r$r.jsonl > $R/s${v}_${c}_np${np}_r$r.txt 2>&1
      done
      $M -np $np $B/benches/peers/mpi-coll $S --only $c --json $R/mpi_${c}_np${np}_r$r.jsonl \
        > $R/mpi_${c}_np${np}_r$r.txt 2>&1
    done
  done
done
(cd $OUT && python3 $H/../device-16core-2026-11-27-stop30/tables.py > stream/tables.txt)
