#!/bin/bash
# Stop 47: AUTO's rule without a table for the fused pairs where ranks share cores, old against
# new, on the 2-core host at 4 ranks (TP 2 x DP 2). usage: ab_rule.sh OLD_BENCH NEW_BENCH LAUNCHES
# OUT_DIR [-b MIN -e MAX]. Launches each build's `vsym-bench fused` in turns (f32, -f 2, every
# mode, ordinary and symmetric buffers), both pairs; one JSON file a launch in OUT_DIR.
old=$1 new=$2 n=$3 out=$4; shift 4
[ $# -eq 0 ] && set -- -b 1K -e 256K
mkdir -p "$out"
for i in $(seq "$n"); do
  for b in old new; do
    bin=$old; [ $b = new ] && bin=$new
    for op in allreduce_allgather reducescatter_allreduce; do
      mpirun --allow-run-as-root --oversubscribe -np 4 "$bin" fused --op $op --dtype f32 -f 2 "$@" \
        --json "$out/${b}_${op}_$i.jsonl" > /dev/null 2>&1 || echo "exit $? $b $op $i"
    done
  done
done
