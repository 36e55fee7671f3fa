#!/bin/bash
# A/B of the all-reduce and broadcast at small sizes: the build before the LL change (vsym-bench-old,
# 71f5d99) and after it (vsym-bench), in turns, 8 and 16 ranks, ROUNDS rounds.
D=$(cd "$(dirname "$0")" && pwd); R=$OUT/ab; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH -np"
for r in ${ROUNDS:-1 2 3 4}; do
  for np in 8 16; do
    for v in old new; do
      B=$D/vsym-bench; [ $v = old ] && B=$D/vsym-bench-old
      for k in allreduce broadcast; do
        timeout 60 $M $np $B $k -b 8 -e 4K -f 8 --json $R/${v}_${k}_np${np}_r$r.jsonl > $R/${v}_${k}_np${np}_r$r.txt 2>&1
        echo "exit $? $v $k np $np r$r" >> $R/progress.txt
      done
    done
  done
done
(cd $OUT && tar czf ab.tgz ab && rm -rf ab)
