#!/bin/bash
# copy service at 2 ranks: the binary before (old) and after (new) storing contiguous pieces
# through the peer's mapping by the run's bytes, taking turns, three launches each
cd /work/main; OUT=$1; mkdir -p $OUT
for r in 1 2 3; do
  for p in ring alltoall random incast; do
    for v in new node; do
      launch/vsym-run -n 2 -- /tmp/vsym-bench-$v copy --pattern $p -b 1M -e 64M -f 8 --check \
        --json $OUT/$v/copy_${p}_np2_r$r.jsonl > $OUT/copy_${p}_np2_r$r.$v.txt 2>&1 || echo "exit $? $p $r $v" >> $OUT/errors.txt
    done
  done
done
