#!/bin/bash
# Device run 9 (stop 14): fused TP x DP collectives (f32, every factorisation and mode) at 4, 8
# and 16 ranks, two rounds; reshard with refit and copy baseline taking turns at 4/8/16 ranks;
# the small all-reduce (16 B .. 64 KiB) next to Open MPI at 8 and 16 ranks, two rounds.
D=$(cd "$(dirname "$0")" && pwd); R=$OUT/r9; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib${EXTRA_LD:+:$EXTRA_LD}
M="mpirun --allow-run-as-root -np"
MB="--bind-to core -x LD_LIBRARY_PATH"
pack() { (cd $OUT && tar czf r9.tgz r9); }
t() { local lim=$1; shift; timeout $lim "$@"; echo "exit $? $(date +%T): $*" >> $R/progress.txt; }
nproc > $R/host.txt; lscpu | grep -E "Model name|L3" >> $R/host.txt
for round in 1 2; do
  for np in 4 8 16; do
    t 120 $M $np $MB $D/vsym-bench-c14 fused --dtype f32 -b 1K -e 1M -f 4 -n 300 -w 30 --check --json $R/fused_np${np}_r$round.jsonl > $R/fused_np${np}_r$round.txt 2>&1
  done
  pack
  for np in 4 8 16; do
    case $np in 4) L="--from tp=4 --to tp=2,dp=2";; 8) L="--from tp=8 --to tp=2,dp=4";; 16) L="--from tp=8,pp=2 --to tp=4,dp=4";; esac
    t 60 $M $np $MB $D/vsym-bench-c14 reshard --model llama3-8b $L --scale 1/16 --check -n 20 --json $R/reshard_np${np}_r$round.jsonl > $R/reshard_np${np}_r$round.txt 2>&1
  done
  for np in 8 16; do
    t 60 $M $np $MB $D/mpi-coll -b 16 -e 64K -f 4 --only allreduce --json $R/mpi_small_np${np}_r$round.jsonl > $R/mpi_small_np${np}_r$round.txt 2>&1
    t 60 $M $np $MB $D/vsym-bench-c14 allreduce -b 16 -e 64K -f 4 --check --json $R/vsym_small_np${np}_r$round.jsonl > $R/vsym_small_np${np}_r$round.txt 2>&1
  done
  pack
done
