#!/bin/bash
# Device run of stop 32: the bf16 kernels two elements per 32-bit word (build-dev/vsym-bench,
# 9b7ef15) against the build before (build-dev/vsym-bench-old, 6a235c2): all-reduce
# and reduce-scatter of bf16, f16 and f32 (the same bytes), 64 KiB-16 MiB, 2, 8 and 16 ranks bound
# to cores, ROUNDS rounds taking turns. Everything packed into OUT/bf16.tgz. Also the CPU's flags.
#   bash results/coll/device-16core-2026-11-27-stop32/run_bf16.sh   (on the device, carry build-dev)
# Run 4 of the stop (the streaming push) used it as NAME=stream DTYPES="f32 bf16" COLLS=allreduce
# SIZES="-b 4M -e 64M -f 4" ROUNDS="1 2" MEMCPY=1: vsym-bench-old 118e31b, vsym-bench 564b4a9.
D=$(pwd)/build-dev; NAME=${NAME:-bf16}; R=$OUT/$NAME; mkdir -p $R
ROUNDS=${ROUNDS:-1 2 3}; NPS=${NPS:-2 8 16}; LIMIT=${LIMIT:-400}
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
start=$(date +%s); grep -m1 "model name" /proc/cpuinfo > $R/cpu.txt; grep -m1 -o "avx512[a-z_0-9]*" /proc/cpuinfo | sort -u >> $R/cpu.txt; nproc >> $R/cpu.txt
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH"
for r in $ROUNDS; do
  for np in $NPS; do
    for dt in ${DTYPES:-bf16 f16 f32}; do
      t=$(left); [ $t -lt 30 ] && { echo "skip $dt np $np r$r: $t s left" >> $R/progress.txt; continue; }
      for v in old new; do
        b=$D/vsym-bench; [ $v = old ] && b=$D/vsym-bench-old
        for c in ${COLLS:-allreduce reduce-scatter}; do
          timeout 60 $M -np $np $b $c --dtype $dt ${SIZES:--b 64K -e 16M -f 4} -n 40 --check --quiet \
            --json $R/${c}_${dt}_np${np}_${v}_r$r.jsonl > $R/${c}_${dt}_np${np}_${v}_r$r.txt 2>&1
          echo "exit $? $(date +%T) $v $c $dt np $np r$r" >> $R/progress.txt
        done
      done
    done
  done
done
if [ -n "${MEMCPY:-}" ]; then
  $D/memcpy-bench ${SIZES:--b 64K -e 16M -f 4} --json $R/memcpy.jsonl > /dev/null 2>&1
  $D/memcpy-bench --loaded ${SIZES:--b 64K -e 16M -f 4} --json $R/memcpy_loaded.jsonl > /dev/null 2>&1
  echo "exit $? $(date +%T) memcpy" >> $R/progress.txt
fi
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
