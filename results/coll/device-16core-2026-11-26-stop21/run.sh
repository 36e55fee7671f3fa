#!/bin/bash
# Device runs 1 and 2 (stop 21): the all-reduce on the 16-core host, two binaries taking turns
# launch by launch: old (9831064: the pushing all-reduce reduced each block into a buffer, then
# copied it to every rank) and new (8b4c89e: each reduced vector stored straight into every
# rank's dst, vsym_coll_reduce_push). --check; Open MPI's MPI_Allreduce (mpi-coll) once per rank
# count and memcpy alone and with np-1 other cores copying (memcpy-bench --loaded on cores
# 0..np-1) when REF=1. Run from the repository root with the binaries and libraries in
# build-dev/ (OUT set by the device; everything is packed into OUT/run.tgz):
#   run 1: build-dev/run.sh                      (2, 4, 8, 16 ranks, 256 KiB-64 MiB, rounds 1-2)
#   run 2: ROUNDS="3 4 5 6" NPS="2 4 16" FROM=1M REF=0 build-dev/run.sh
D=$(cd "$(dirname "$0")" && pwd); R=$OUT; mkdir -p $R/old $R/new $R/ref
ROUNDS=${ROUNDS:-1 2}; NPS=${NPS:-2 4 8 16}; FROM=${FROM:-256K}; REF=${REF:-1}
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench-new | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
nproc > $R/host.txt; lscpu | grep -E "Model name|L3|NUMA" >> $R/host.txt; mpirun --version | head -1 >> $R/host.txt
echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH" >> $R/host.txt; ldd $D/vsym-bench-new | grep -E "pmix|not found" >> $R/host.txt
start=$(date +%s)
if [ "$REF" = 1 ]; then
  $D/memcpy-bench -b $FROM -e 64M -f 4 --only memcpy --json $R/ref/memcpy.jsonl > /dev/null 2>&1
  for np in $NPS; do
    taskset -c 0-$((np - 1)) $D/memcpy-bench -b $FROM -e 64M -f 4 --only memcpy --loaded \
      --json $R/ref/memcpy_loaded_np$np.jsonl > /dev/null 2>&1
  done
fi
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH -np"
first=${ROUNDS%% *}
for r in $ROUNDS; do
  for np in $NPS; do
    for v in old new; do
      timeout 120 $M $np $D/vsym-bench-$v allreduce -b $FROM -e 64M -f 4 --check \
        --json $R/$v/vsym_allreduce_np${np}_r$r.jsonl > $R/$v/np${np}_r$r.txt 2>&1
      echo "exit $? $(date +%T) $v $np $r" >> $R/progress.txt
    done
    if [ "$REF" = 1 ] && [ $r = $first ]; then
      timeout 120 $M $np $D/mpi-coll -b $FROM -e 64M -f 4 --only allreduce \
        --json $R/ref/mpi_np$np.jsonl > $R/ref/mpi_np$np.txt 2>&1
      echo "exit $? $(date +%T) mpi $np" >> $R/progress.txt
    fi
  done
  [ $(( $(date +%s) - start )) -gt 420 ] && break
done
(cd $R && tar czf run.tgz host.txt progress.txt old new ref && rm -rf old new ref)
