#!/bin/bash
# Device run of stop 30 on the 16-core host (binaries and libraries in build-dev/, OUT set by the
# device; everything packed into OUT/stream.tgz): the broadcast and the all-gather of ordinary
# buffers with their publishes into the scratch streamed (non-temporal stores) from every size
# (VSYM_COLL_STREAM_MIN=1), never (0) and by the default rule (auto: broadcast from 32 KiB,
# all-gather from 512 KiB per rank), next to Open MPI's MPI_Bcast and MPI_Allgather, 2, 8 and
# 16 ranks bound to cores, 8 KiB-8 MiB (x4), ROUNDS rounds, the four taking turns.
#   bash results/coll/device-16core-2026-11-27-stop30/run.sh   (on the device, carry build-dev)
D=$(pwd)/build-dev; R=$OUT/stream; mkdir -p $R
ROUNDS=${ROUNDS:-1 2}; NPS=${NPS:-2 8 16}; LIMIT=${LIMIT:-480}
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
nproc > $R/host.txt; lscpu | grep -E "Model name|L2|L3|NUMA" >> $R/host.txt
mpirun --version | head -1 >> $R/host.txt
ldd $D/vsym-bench $D/mpi-coll | grep -E "pmix|mpi|not found" >> $R/host.txt
start=$(date +%s)
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH"
S="-b 8K -e 8M -f 4 -n 40"
for r in $ROUNDS; do
  for np in $NPS; do
    for c in broadcast allgather; do
      t=$(left); [ $t -lt 30 ] && { echo "skip $c np $np r$r: $t s left" >> $R/progress.txt; continue; }
      for v in 1 0 auto; do
        timeout 40 $M -x VSYM_COLL_STREAM_MIN=$v -np $np $D/vsym-bench $c $S --check \
          --json $R/s${v}_${c}_np${np}_r$r.jsonl > $R/s${v}_${c}_np${np}_r$r.txt 2>&1
        echo "exit $? $(date +%T) stream $v $c np $np r$r" >> $R/progress.txt
      done
      timeout 40 $M -np $np $D/mpi-coll $S --only $c --json $R/mpi_${c}_np${np}_r$r.jsonl \
        > $R/mpi_${c}_np${np}_r$r.txt 2>&1
      echo "exit $? $(date +%T) mpi $c np $np r$r" >> $R/progress.txt
    done
  done
done
(cd $OUT && tar czf stream.tgz stream && rm -rf stream)
