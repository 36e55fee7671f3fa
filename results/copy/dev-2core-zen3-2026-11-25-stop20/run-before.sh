#!/bin/bash
# Copy service vs the single-peer put (alone and under load), every pattern, 2 ranks, three
# interleaved launches, on the 2-core development machine. Usage: run.sh BUILD OUT
B=$1; OUT=$2; mkdir -p $OUT
for r in 1 2 3; do
  for p in ring alltoall scatter gather random incast; do
    launch/vsym-run -n 2 -- $B/benches/vsym-bench copy --pattern $p -b 1M -e 64M -f 8 --check \
      --json $OUT/copy_${p}_np2_r$r.jsonl > $OUT/copy_${p}_np2_r$r.txt 2>&1 || echo "exit $? $p $r" >> $OUT/errors.txt
  done
done
