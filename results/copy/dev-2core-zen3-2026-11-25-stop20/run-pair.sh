#!/bin/bash
# The copy service at 2 ranks, two binaries taking turns launch by launch, three launches each.
#   run-pair.sh OUT "A B" "PATTERNS"   (binaries /tmp/vsym-bench-A, /tmp/vsym-bench-B)
# As run: run-pair.sh /tmp/cp2 "old new" "ring alltoall random incast gather scatter"
#         run-pair.sh /tmp/cp3 "new node" "ring alltoall random incast"
cd /work/main; OUT=$1; mkdir -p $OUT
for r in 1 2 3; do
  for p in $3; do
    for v in $2; do
      mkdir -p $OUT/$v
      launch/vsym-run -n 2 -- /tmp/vsym-bench-$v copy --pattern $p -b 1M -e 64M -f 8 --check \
        --json $OUT/$v/copy_${p}_np2_r$r.jsonl > $OUT/copy_${p}_np2_r$r.$v.txt 2>&1 || echo "exit $? $p $r $v" >> $OUT/errors.txt
    done
  done
done
