#!/bin/bash
# Fourth device run of stop 52 (16-core Intel guest): AUTO's new sizes for symmetric buffers
# with a core per rank (b891a41: the two-shot modes from 512 B, reduce-scatter + all-reduce from
# 1 KiB) against the build before (vsym-bench.new, 582aeba: from 4 KiB), the builds taking turns
# (old first in odd rounds), 8 and 4 ranks bound to cores, f16, 256 B-4 KiB, --check, four rounds.
#   FROM=1 TO=4 bash results/coll/device-16core-2026-11-29-stop52/run_s52d.sh   (carry build-dev)
NAME=${NAME:-s52d_${FROM:-1}}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.b891
for round in $(seq ${FROM:-1} ${TO:-4}); do
  if [ $((round % 2)) = 1 ]; then order="new b891"; else order="b891 new"; fi
  for np in 8 4; do
    for v in $order; do
      tag=fused.np$np.r$round.$v; [ $v = new ] && tag=fused.np$np.r$round.old
      [ $v = b891 ] && tag=fused.np$np.r$round.new
      mpirun_step $tag $np $D/vsym-bench.$v fused -b 256 -e 4K -f 2 --check --json $R/$tag.jsonl
    done
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
