#!/bin/bash
# Stop 31, 2-core AMD host: the broadcast of ordinary buffers whose root publishes in 64 KiB
# pieces that the readers copy out as they come (from 512 KiB; VSYM_COLL_BC_PIECE auto), NEW,
# against the build before, OLD, and Open MPI's MPI_Bcast (MPI), taking turns, ROUNDS rounds
# (default 1-5) at NPS ranks (default 2 4), 256 KiB-8 MiB.
# Usage: [ROUNDS=..] [NPS=..] run_bc.sh OLD_BENCH NEW_BENCH MPI_COLL OUTDIR
set -eu
old=$1 new=$2 mpi=$3 out=$4
mkdir -p "$out"
S="-b 256K -e 8M -f 2 -n 100"
for round in ${ROUNDS:-1 2 3 4 5}; do
    for np in ${NPS:-2 4}; do
        for v in old new; do
            b=$old; [ $v = new ] && b=$new
            launch/vsym-run -n $np -- "$b" broadcast $S --check \
                --json "$out/bc_np${np}_${v}_r$round.jsonl" > "$out/bc_np${np}_${v}_r$round.txt" 2>&1
        done
        mpirun --allow-run-as-root --oversubscribe -np $np "$mpi" $S --only broadcast \
            --json "$out/bc_np${np}_mpi_r$round.jsonl" > "$out/bc_np${np}_mpi_r$round.txt" 2>&1
    done
done
