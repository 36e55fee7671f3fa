#!/bin/bash
# Device run 10 (stop 16): the copy service's patterns at 2/8/16 ranks with the loaded put
# reference (put_all: every rank puts to its ring neighbour at once), three interleaved rounds;
# the ring and a reshard at 8/16 ranks with non-temporal stores from 2 MiB / 8 MiB / auto.
D=$(cd "$(dirname "$0")" && pwd); R=$OUT/r10; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench-c16 | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
ldd $D/vsym-bench-c16 > $R/ldd.txt 2>&1
M="mpirun --allow-run-as-root -np"
MB="--bind-to core -x LD_LIBRARY_PATH -x VSYM_NT_THRESHOLD"
B=$D/vsym-bench-c16
pack() { (cd $OUT && tar czf r10.tgz r10); }
t() { local lim=$1; shift; timeout $lim "$@"; echo "exit $? $(date +%T): $*" >> $R/progress.txt; }
nproc > $R/host.txt; lscpu | grep -E "Model name|L3|L2" >> $R/host.txt; cat /sys/devices/system/cpu/cpu0/cache/index3/size >> $R/host.txt 2>&1
export VSYM_NT_THRESHOLD=auto
for round in 1 2 3; do
  for np in 2 8 16; do
    t 90 $M $np $MB $B copy --pattern ring -b 1M -e 64M -f 8 --check --json $R/copy_ring_np${np}_r$round.jsonl > $R/copy_ring_np${np}_r$round.txt 2>&1
    t 90 $M $np $MB $B copy --pattern alltoall -b 1M -e 8M -f 8 --check --json $R/copy_alltoall_np${np}_r$round.jsonl > $R/copy_alltoall_np${np}_r$round.txt 2>&1
  done
  pack
done
for round in 1 2; do
  for nt in auto 8M 2M; do
    export VSYM_NT_THRESHOLD=$nt
    for np in 8 16; do
      t 90 $M $np $MB $B copy --pattern ring -b 8M -e 64M -f 8 --check --json $R/nt_ring_np${np}_${nt}_r$round.jsonl > $R/nt_ring_np${np}_${nt}_r$round.txt 2>&1
      case $np in 8) L="--from tp=8 --to tp=2,dp=4";; 16) L="--from tp=8,pp=2 --to tp=4,dp=4";; esac
      t 60 $M $np $MB $B reshard --model llama3-8b $L --scale 1/16 --check -n 20 --json $R/nt_reshard_np${np}_${nt}_r$round.jsonl > $R/nt_reshard_np${np}_${nt}_r$round.txt 2>&1
    done
  done
  pack
done
