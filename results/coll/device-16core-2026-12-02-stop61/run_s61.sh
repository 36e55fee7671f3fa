#!/bin/bash
# Stop 61 on the 16-core guest: the non-temporal copy with 64-byte (AVX-512) stores against the
# 16-byte stores before it, two vsym-bench builds taking turns (build-dev/vsym-bench.old: main's
# 5288560; build-dev/vsym-bench: with the change), ranks bound to cores, two rounds: a put of
# 16-64 MiB (2 ranks), the copy service's ring (2 ranks, 16-64 MiB), the all-reduce, all-gather
# and broadcast at 32-64 MiB (2 and 8 ranks); memcpy-bench alone and loaded first.
#   bash results/coll/device-16core-2026-12-02-stop61/run_s61.sh   (carry build-dev)
NAME=${NAME:-s61}
LIMIT=${LIMIT:-560}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench
grep -o 'avx512f' /proc/cpuinfo | head -1 > $R/avx512.txt
for i in 0 1 2 3; do cat /sys/devices/system/cpu/cpu0/cache/index$i/{level,size,shared_cpu_list} 2>/dev/null; done > $R/caches.txt
step memcpy 60 $D/memcpy-bench -b 4M -e 64M
step memcpy_loaded 90 $D/memcpy-bench -b 4M -e 64M --loaded
for round in 1 2; do
  for b in old new; do
    bin=$D/vsym-bench; [ $b = old ] && bin=$D/vsym-bench.old
    mpirun_step put.$b.r$round 2 $bin put -b 16M -e 64M -f 2 -n 10
    mpirun_step copy.$b.r$round 2 $bin copy --pattern ring -b 16M -e 64M -f 2 -n 10
    for np in 2 8; do
      for op in allreduce allgather broadcast; do
        mpirun_step $op.np$np.$b.r$round $np $bin $op -b 32M -e 64M -f 2 -n 5
      done
    done
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
