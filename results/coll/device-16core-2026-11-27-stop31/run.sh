#!/bin/bash
# Device run of stop 31: the reduction kernels that run from the last element down where a
# destination lies just past a source modulo 4 KiB (4K aliasing; build-dev/vsym-bench) against
# the build before (build-dev/vsym-bench-old, commit f7b3cf8): all-reduce and reduce-scatter
# 64 KiB-16 MiB at 2, 8 and 16 ranks bound to cores, ROUNDS rounds taking turns, memcpy-bench
# alone and loaded for the bound, then the fused reduce-scatter + all-reduce at 16 ranks.
# Everything packed into OUT/alias.tgz.
#   bash results/coll/device-16core-2026-11-27-stop31/run.sh   (on the device, carry build-dev)
D=$(pwd)/build-dev; R=$OUT/alias; mkdir -p $R
ROUNDS=${ROUNDS:-1 2 3}; NPS=${NPS:-2 8 16}; LIMIT=${LIMIT:-480}
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
start=$(date +%s)
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH"
nproc > $R/host.txt; lscpu >> $R/host.txt
for r in $ROUNDS; do
  for np in $NPS; do
    for c in allreduce reduce-scatter; do
      t=$(left); [ $t -lt 40 ] && { echo "skip $c np $np r$r: $t s left" >> $R/progress.txt; continue; }
      for v in old new; do
        b=$D/vsym-bench; [ $v = old ] && b=$D/vsym-bench-old
        timeout 60 $M -np $np $b $c -b 64K -e 16M -f 4 -n 40 --check --quiet \
          --json $R/${v}_${c}_np${np}_r$r.jsonl > $R/${v}_${c}_np${np}_r$r.txt 2>&1
        echo "exit $? $(date +%T) $v $c np $np r$r" >> $R/progress.txt
      done
    done
  done
  $D/memcpy-bench -b 64K -e 16M -f 4 --json $R/memcpy_r$r.jsonl > /dev/null 2>&1
  $D/memcpy-bench --loaded -b 64K -e 16M -f 4 --json $R/memcpy_loaded_r$r.jsonl > /dev/null 2>&1
  echo "exit $? $(date +%T) memcpy r$r" >> $R/progress.txt
done
for r in 1 2; do
  for v in old new; do
    t=$(left); [ $t -lt 100 ] && { echo "skip fused $v r$r: $t s left" >> $R/progress.txt; continue; }
    b=$D/vsym-bench; [ $v = old ] && b=$D/vsym-bench-old
    timeout 90 $M -np 16 $b fused --dtype f32 --op reducescatter_allreduce -b 4K -e 1M -f 4 \
      --check --quiet --json $R/${v}_fused_np16_r$r.jsonl > $R/${v}_fused_np16_r$r.txt 2>&1
    echo "exit $? $(date +%T) $v fused np 16 r$r" >> $R/progress.txt
  done
done
(cd $OUT && tar czf alias.tgz alias && rm -rf alias)
