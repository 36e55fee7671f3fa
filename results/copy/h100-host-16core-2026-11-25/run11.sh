#!/bin/bash
# Device run 11 (stop 16): all-to-all and random patterns of the copy service at 2/8/16 ranks,
# the loaded put reference now moving the bytes each rank sends in a run (run 10 put one task's
# size), three rounds; the ring once more at 16 ranks.
D=$(cd "$(dirname "$0")" && pwd); R=$OUT/r11; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench-c16b | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
M="mpirun --allow-run-as-root -np"
MB="--bind-to core -x LD_LIBRARY_PATH"
B=$D/vsym-bench-c16b
pack() { (cd $OUT && tar czf r11.tgz r11); }
t() { local lim=$1; shift; timeout $lim "$@"; echo "exit $? $(date +%T): $*" >> $R/progress.txt; }
for round in 1 2 3; do
  for np in 2 8 16; do
    t 90 $M $np $MB $B copy --pattern alltoall -b 1M -e 8M -f 8 --check --json $R/copy_alltoall_np${np}_r$round.jsonl > $R/copy_alltoall_np${np}_r$round.txt 2>&1
    t 90 $M $np $MB $B copy --pattern random -b 1M -e 16M -f 16 --check --json $R/copy_random_np${np}_r$round.jsonl > $R/copy_random_np${np}_r$round.txt 2>&1
  done
  t 90 $M 16 $MB $B copy --pattern ring -b 64M -e 64M --check --json $R/copy_ring_np16_r$round.jsonl > $R/copy_ring_np16_r$round.txt 2>&1
  pack
done
