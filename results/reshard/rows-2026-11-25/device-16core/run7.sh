#!/bin/bash
# Device run 7 (local ops as copy-service self tasks): three interleaved rounds of reshard (new: strided slices as copy-service rows,
# destinations in the symmetric heap; old: packed, commit 17f99b8) at 2/4/8 ranks, and of the
# copy-service ring at 2/8/16 ranks, to see the noise of this machine.
D=$(cd "$(dirname "$0")" && pwd); R=$OUT/r7; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib${EXTRA_LD:+:$EXTRA_LD}
M="mpirun --allow-run-as-root -np"
MB="--bind-to core -x LD_LIBRARY_PATH"
pack() { (cd $OUT && tar czf r7.tgz r7); }
t() { local lim=$1; shift; timeout $lim "$@"; echo "exit $? $(date +%T): $*" >> $R/progress.txt; }
for round in 1 2 3; do # run 7: local ops inside the copy service
  for np in 2 4 8; do
    case $np in 2) L="--from tp=2 --to tp=1,dp=2";; 4) L="--from tp=4 --to tp=2,dp=2";; 8) L="--from tp=8 --to tp=2,dp=4";; esac
    t 60 $M $np $MB $D/vsym-bench-new reshard --model llama3-8b $L --scale 1/16 --check -n 20 --json $R/reshard_new_np${np}_r$round.jsonl > $R/reshard_new_np${np}_r$round.txt 2>&1
    t 60 $M $np $MB $D/vsym-bench reshard --model llama3-8b $L --scale 1/16 --check -n 20 --json $R/reshard_old_np${np}_r$round.jsonl > $R/reshard_old_np${np}_r$round.txt 2>&1
  done
  pack
done
