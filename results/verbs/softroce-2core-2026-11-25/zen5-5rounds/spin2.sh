#!/bin/bash
# Spin count before yielding (VSYM_SPIN_COUNT) in the Soft-RoCE guest: bandwidth, rate, latency.
OUT=$1; here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../../../.." && pwd); B=$top/build; cd "$top"
v() { VSYM_SPIN_COUNT=$1 VSYM_SQ_DEPTH=128 VSYM_TRANSPORT=verbs launch/vsym-run -n 2 -- $B/benches/vsym-bench "${@:2}" 2>&1; }
for r in 1 2 3; do
  for sc in -1 1000 200; do
    echo "r$r spin $sc put-nbi $(v $sc put-nbi --mode bw -s 64K --window 1024 -D 2 | grep -E '^ +65536' | awk '{print $5}')" >> $OUT/res.txt
    echo "r$r spin $sc get-nbi $(v $sc get-nbi --mode bw -s 64K --window 1024 -D 2 | grep -E '^ +65536' | awk '{print $5}')" >> $OUT/res.txt
    echo "r$r spin $sc fadd $(v $sc atomic --op fetch-add-nbi --window 5000 -D 2 | grep -A2 'fetch-add-nbi' | tail -1 | awk '{print $NF}')" >> $OUT/res.txt
    echo "r$r spin $sc lat $(v $sc put --mode lat -s 8 -n 2000 | grep -A2 pingpong | tail -1 | awk '{print $5}')" >> $OUT/res.txt
  done
done
