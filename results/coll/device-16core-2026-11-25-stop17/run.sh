#!/bin/bash
# Device run (stop 17): which all-reduce algorithm is fastest with ordinary buffers at 2, 4, 8
# and 16 ranks on the 16-core host: vsym-bench allreduce with VSYM_COLL_ALGO forced to each of
# oneshot, twoshot, ring and auto (f32: 4 KiB-64 MiB at 2 and 4 ranks, to 16 MiB at 8 and 16;
# bf16 at 2 and 4 ranks in round 1), two rounds, and Open MPI's MPI_Allreduce once per rank
# count. Binaries and the libraries the device lacks travel in
# build-dev/ (run from the repository root: build-dev/run.sh).
D=$(cd "$(dirname "$0")" && pwd); R=$OUT/r; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
ldd $D/vsym-bench > $R/ldd.txt 2>&1
(nproc; lscpu | grep -E "Model name|L3|L2"; mpirun --version | head -1) > $R/host.txt 2>&1
M="mpirun --allow-run-as-root -np"
MB="--bind-to core -x LD_LIBRARY_PATH -x VSYM_COLL_ALGO"
pack() { (cd $OUT && tar czf r.tgz r); }
t() { local lim=$1; shift; timeout $lim "$@"; echo "exit $? $(date +%T): ${*: -3}" >> $R/progress.txt; }
for np in 2 4 8 16; do
  t 60 $M $np $MB $D/mpi-coll -b 4K -e 64M -f 4 --only allreduce --json $R/mpi_np$np.jsonl > $R/mpi_np$np.txt 2>&1
done
pack
for round in 1 2; do
  for np in 2 4 8 16; do
    e=64M; [ $np -gt 4 ] && e=16M
    for a in auto oneshot twoshot ring; do
      VSYM_COLL_ALGO=$a t 45 $M $np $MB $D/vsym-bench allreduce -b 4K -e $e -f 4 --json $R/ar_${a}_np${np}_r$round.jsonl > $R/ar_${a}_np${np}_r$round.txt 2>&1
    done
    pack
  done
  for np in $([ $round = 1 ] && echo 2 4); do
    for a in auto twoshot ring; do
      VSYM_COLL_ALGO=$a t 45 $M $np $MB $D/vsym-bench allreduce --dtype bf16 -b 4K -e 64M -f 4 --json $R/arbf16_${a}_np${np}_r$round.jsonl > $R/arbf16_${a}_np${np}_r$round.txt 2>&1
    done
  done
  pack
done
