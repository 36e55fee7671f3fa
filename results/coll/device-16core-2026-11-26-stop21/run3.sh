#!/bin/bash
# Device run 3 (stop 21): the reduction kernels' block (bytes of the destination reduced per pass
# over the sources, kept in L1: VSYM_REDUCE_BLOCK at compile time) of 4 KiB (the default), 16 and
# 32 KiB, three binaries of one tree (8d65c4a plus the macro) taking turns: the symmetric
# all-reduce at 8 and 16 ranks (256 KiB-16 MiB) and the fused reduce-scatter + all-reduce at 16
# ranks (1-256 KiB, every TP x DP split and mode), two rounds, --check.
# Run from the repository root with the binaries and libraries in build-dev/: build-dev/run.sh
# (OUT set by the device; everything is packed into OUT/run.tgz).
D=$(cd "$(dirname "$0")" && pwd); R=$OUT; mkdir -p $R/b4 $R/b16 $R/b32
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench-b4 | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
nproc > $R/host.txt; lscpu | grep -E "Model name|L3" >> $R/host.txt; mpirun --version | head -1 >> $R/host.txt
start=$(date +%s)
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH -x VSYM_AUTOTUNE_FILE -np"
export VSYM_AUTOTUNE_FILE=
for r in 1 2; do
  for v in b4 b16 b32; do
    for np in 8 16; do
      timeout 60 $M $np $D/vsym-bench-$v allreduce -b 256K -e 16M -f 4 --check \
        --json $R/$v/allreduce_np${np}_r$r.jsonl > $R/$v/allreduce_np${np}_r$r.txt 2>&1
      echo "exit $? $(date +%T) $v allreduce $np $r" >> $R/progress.txt
    done
    timeout 90 $M 16 $D/vsym-bench-$v fused --dtype f32 --op reducescatter_allreduce \
      -b 1K -e 256K -f 4 -n 200 -w 20 --check \
      --json $R/$v/rsar_np16_r$r.jsonl > $R/$v/rsar_np16_r$r.txt 2>&1
    echo "exit $? $(date +%T) $v rsar 16 $r" >> $R/progress.txt
  done
  [ $(( $(date +%s) - start )) -gt 280 ] && break
done
(cd $R && tar czf run.tgz host.txt progress.txt b4 b16 b32 && rm -rf b4 b16 b32)
