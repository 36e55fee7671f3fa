#!/bin/bash
# Second device run of stop 30: the all-gather and the all-to-all of ordinary buffers through the
# scratch with each rank's own block taken from its src (build-dev/vsym-bench, commit d72fd24)
# against the build before (build-dev/vsym-bench-old, commit 75905dc), next to Open MPI, 2, 8
# and 16 ranks bound to cores, ROUNDS rounds taking turns (all-gather 8 KiB-8 MiB of gathered
# buffer, all-to-all 8 KiB-512 KiB of src: from 1 MiB the all-to-all reads the peers' src with
# process-to-process copies, unchanged). Everything packed into OUT/own.tgz.
#   bash results/coll/device-16core-2026-11-27-stop30/run2.sh   (on the device, carry build-dev)
D=$(pwd)/build-dev; R=$OUT/own; mkdir -p $R
ROUNDS=${ROUNDS:-1 2 3}; NPS=${NPS:-2 8 16}; LIMIT=${LIMIT:-420}
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
start=$(date +%s)
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH"
for r in $ROUNDS; do
  for np in $NPS; do
    for c in allgather alltoall; do
      S="-b 8K -e 8M -f 4 -n 40"; [ $c = alltoall ] && S="-b 8K -e 512K -f 4 -n 100"
      t=$(left); [ $t -lt 30 ] && { echo "skip $c np $np r$r: $t s left" >> $R/progress.txt; continue; }
      timeout 40 $M -np $np $D/vsym-bench-old $c $S --check --quiet \
        --json $R/old_${c}_np${np}_r$r.jsonl > $R/old_${c}_np${np}_r$r.txt 2>&1
      echo "exit $? $(date +%T) old $c np $np r$r" >> $R/progress.txt
      timeout 40 $M -np $np $D/vsym-bench $c $S --check --quiet \
        --json $R/new_${c}_np${np}_r$r.jsonl > $R/new_${c}_np${np}_r$r.txt 2>&1
      echo "exit $? $(date +%T) new $c np $np r$r" >> $R/progress.txt
      timeout 40 $M -np $np $D/mpi-coll $S --only $c --json $R/mpi_${c}_np${np}_r$r.jsonl \
        > $R/mpi_${c}_np${np}_r$r.txt 2>&1
      echo "exit $? $(date +%T) mpi $c np $np r$r" >> $R/progress.txt
    done
  done
done
(cd $OUT && tar czf own.tgz own && rm -rf own)
