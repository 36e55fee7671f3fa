#!/bin/bash
# Device run 2 (stop 17): the all-reduce rule chosen from run 1 (two ranks: the ring above
# 128 KiB; more ranks: one-shot while n x bytes <= 16 KiB, the ring from 1 MiB up to 8 ranks),
# checked on the same 16-core host: vsym-bench allreduce with AUTO next to Open MPI at 2, 4, 8 and
# 16 ranks, two interleaved rounds (256 B-64 MiB; to 16 MiB at 8 and 16 ranks); one-shot and
# two-shot forced at 8 and 16 ranks from 256 B to 16 KiB (the one-shot boundary); bf16 at 2
# ranks, AUTO against two-shot. Run from the repository root: build-dev/run2.sh.
D=$(cd "$(dirname "$0")" && pwd); R=$OUT/r2; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
M="mpirun --allow-run-as-root -np"
MB="--bind-to core -x LD_LIBRARY_PATH -x VSYM_COLL_ALGO"
pack() { (cd $OUT && tar czf r2.tgz r2); }
t() { local lim=$1; shift; timeout $lim "$@"; echo "exit $? $(date +%T): ${*: -3}" >> $R/progress.txt; }
for round in 1 2; do
  for np in 2 4 8 16; do
    e=64M; [ $np -gt 4 ] && e=16M
    t 45 $M $np $MB $D/mpi-coll -b 256 -e $e -f 4 --only allreduce --json $R/mpi_np${np}_r$round.jsonl > $R/mpi_np${np}_r$round.txt 2>&1
    VSYM_COLL_ALGO=auto t 45 $M $np $MB $D/vsym-bench allreduce -b 256 -e $e -f 4 --check --json $R/ar_auto_np${np}_r$round.jsonl > $R/ar_auto_np${np}_r$round.txt 2>&1
  done
  pack
  for np in 8 16; do
    for a in oneshot twoshot; do
      VSYM_COLL_ALGO=$a t 30 $M $np $MB $D/vsym-bench allreduce -b 256 -e 16K -f 2 --json $R/ar_${a}_small_np${np}_r$round.jsonl > $R/ar_${a}_small_np${np}_r$round.txt 2>&1
    done
  done
  for a in auto twoshot; do
    VSYM_COLL_ALGO=$a t 45 $M 2 $MB $D/vsym-bench allreduce --dtype bf16 -b 4K -e 64M -f 4 --json $R/arbf16_${a}_np2_r$round.jsonl > $R/arbf16_${a}_np2_r$round.txt 2>&1
  done
  pack
done
