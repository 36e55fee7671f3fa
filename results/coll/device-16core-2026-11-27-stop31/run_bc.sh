#!/bin/bash
# Second device run of stop 31 (third call): the broadcast of ordinary buffers whose root
# publishes in pieces that the readers copy out as they come (build-dev/vsym-bench, this stop's
# tree), VSYM_COLL_BC_PIECE=0 (whole chunks, as before) against its default (64 KiB pieces with
# a core per rank), next to Open MPI's MPI_Bcast, 2, 8 and 16 ranks bound to cores, 64 KiB-8 MiB,
# ROUNDS rounds taking turns. Everything packed into OUT/bc.tgz.
#   bash results/coll/device-16core-2026-11-27-stop31/run_bc.sh   (on the device, carry build-dev)
D=$(pwd)/build-dev; R=$OUT/bc; mkdir -p $R
ROUNDS=${ROUNDS:-1 2 3}; NPS=${NPS:-2 8 16}; LIMIT=${LIMIT:-400}
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
start=$(date +%s)
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH"
S="-b 64K -e 8M -f 2 -n 40"
for r in $ROUNDS; do
  for np in $NPS; do
    t=$(left); [ $t -lt 40 ] && { echo "skip np $np r$r: $t s left" >> $R/progress.txt; continue; }
    for pc in 0 auto; do
      VSYM_COLL_BC_PIECE=$pc timeout 60 $M -x VSYM_COLL_BC_PIECE -np $np $D/vsym-bench broadcast \
        $S --check --quiet --json $R/piece${pc}_np${np}_r$r.jsonl > $R/piece${pc}_np${np}_r$r.txt 2>&1
      echo "exit $? $(date +%T) piece $pc np $np r$r" >> $R/progress.txt
    done
    timeout 60 $M -np $np $D/mpi-coll $S --only broadcast --json $R/mpi_np${np}_r$r.jsonl \
      > $R/mpi_np${np}_r$r.txt 2>&1
    echo "exit $? $(date +%T) mpi np $np r$r" >> $R/progress.txt
  done
done
(cd $OUT && tar czf bc.tgz bc && rm -rf bc)
