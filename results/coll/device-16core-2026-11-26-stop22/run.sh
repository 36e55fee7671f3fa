#!/bin/bash
# Device runs of stop 22 on the 16-core host (binaries and libraries in build-dev/, OUT set by
# the device; everything is packed into OUT/run.tgz). Parts, chosen by PARTS:
#   ar     the all-reduce with symmetric buffers read in place from 4 KiB (the new
#          VSYM_COLL_ZEROCOPY_MIN default) against 256 KiB (the old fixed limit), launches taking
#          turns, ROUNDS rounds, NPS ranks, 1 KiB-1 MiB, --check; Open MPI's MPI_Allreduce
#          (mpi-coll) once per rank count.
#   fused  vsym-bench fused (every factorisation, ordinary and symmetric buffers, --check) with
#          VSYM_AUTOTUNE_FILE: the first launch per rank count tunes and saves the table, the
#          second loads it; FNPS ranks.
#   run 1: PARTS="ar fused" FNPS=8 build-dev/run.sh;  run 2: PARTS=fused FNPS="16 4" build-dev/run.sh
D=$(cd "$(dirname "$0")" && pwd); R=$OUT; mkdir -p $R/ar $R/fused $R/ref
PARTS=${PARTS:-ar fused}; ROUNDS=${ROUNDS:-1 2}; NPS=${NPS:-2 4 8 16}; FNPS=${FNPS:-8 16}
LIMIT=${LIMIT:-540}
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
nproc > $R/host.txt; lscpu | grep -E "Model name|L3|NUMA" >> $R/host.txt; mpirun --version | head -1 >> $R/host.txt
echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH" >> $R/host.txt; ldd $D/vsym-bench | grep -E "pmix|not found" >> $R/host.txt
start=$(date +%s)
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH -x VSYM_COLL_ZEROCOPY_MIN -x VSYM_AUTOTUNE_FILE -np"
if [[ " $PARTS " == *" ar "* ]]; then
  for r in $ROUNDS; do
    for np in $NPS; do
      for v in old new; do
        [ $v = old ] && export VSYM_COLL_ZEROCOPY_MIN=256K || export VSYM_COLL_ZEROCOPY_MIN=4K
        timeout 60 $M $np $D/vsym-bench allreduce -b 1K -e 1M -f 4 -n 300 --check \
          --json $R/ar/${v}_np${np}_r$r.jsonl > $R/ar/${v}_np${np}_r$r.txt 2>&1
        echo "exit $? $(date +%T) ar $v np $np round $r" >> $R/progress.txt
      done
      if [ $r = ${ROUNDS%% *} ]; then
        timeout 60 $M $np $D/mpi-coll -b 1K -e 1M -f 4 --only allreduce \
          --json $R/ref/mpi_np$np.jsonl > $R/ref/mpi_np$np.txt 2>&1
        echo "exit $? $(date +%T) mpi np $np" >> $R/progress.txt
      fi
    done
  done
  unset VSYM_COLL_ZEROCOPY_MIN
fi
if [[ " $PARTS " == *" fused "* ]]; then
  for np in $FNPS; do
    export VSYM_AUTOTUNE_FILE=$R/fused/autotune_np$np.txt
    for k in tune load; do
      t=$(left); [ $t -lt 30 ] && { echo "skip fused np $np $k: $t s left" >> $R/progress.txt; continue; }
      timeout $t $M $np $D/vsym-bench fused --dtype f32 -b 64 -e 1M -f 4 -n 200 --check \
        --json $R/fused/${k}_np$np.jsonl > $R/fused/${k}_np$np.txt 2>&1
      echo "exit $? $(date +%T) fused $k np $np" >> $R/progress.txt
    done
  done
fi
(cd $R && tar czf run.tgz host.txt progress.txt ar fused ref && rm -rf ar fused ref)
