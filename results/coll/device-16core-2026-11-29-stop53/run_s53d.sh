#!/bin/bash
# Stop 53's fourth device run: AUTO's rule for reduce-scatter + all-reduce of symmetric buffers
# before (vsym-bench.old, 6b125ac: the two-shot from 1-2 KiB) and after d6313c4 (vsym-bench.new2:
# the baseline from 16 KiB with a core per rank), builds taking turns, without and with --touch;
# 4, 8 and 16 ranks bound to cores, f16, 4 KiB-1 MiB by 4, -n 300, --check, every split, one
# launch each. Then the new build at 8 ranks with an autotune table made first (tune_touch).
#   bash results/coll/device-16core-2026-11-29-stop53/run_s53d.sh   (carry build-dev)
NAME=${NAME:-s53d}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.new2
for np in 8 16 4; do
  for t in touch plain; do
    x=; [ $t = touch ] && x=--touch
    for b in old new2; do
      mpirun_step rsar.np$np.$t.$b $np $D/vsym-bench.$b fused --op reducescatter_allreduce \
        -b 4K -e 1M -f 4 -n 300 --check $x --json $R/rsar.np$np.$t.$b.jsonl
    done
  done
done
mpirun_step tuned.np8.touch 8 -x VSYM_AUTOTUNE_FILE=$R/tune8.txt $D/vsym-bench.new2 fused \
  --op reducescatter_allreduce -b 4K -e 1M -f 4 -n 300 --check --touch \
  --json $R/tuned.np8.touch.jsonl
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
