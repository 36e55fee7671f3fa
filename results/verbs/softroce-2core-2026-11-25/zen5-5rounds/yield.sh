#!/bin/bash
OUT=$1; here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../../../.." && pwd); B=$top/build; cd "$top"
pt() { ib_write_bw -d rxe0 -x 0 -s 65536 -n 1024 > /dev/null 2>&1 & sleep 1; ib_write_bw -d rxe0 -x 0 -s 65536 -n 1024 127.0.0.1 | grep -E "^ 65536"; wait; }
# build the preload first: cc -O2 -shared -fPIC -o BUILD/yieldsleep.so yieldsleep.c
for r in 1 2 3; do
  echo "pt $(pt)" >> $OUT/res.txt
  for v in plain preload; do
    pre=""; [ $v = preload ] && pre="env LD_PRELOAD=$B/yieldsleep.so"
    x=$(VSYM_SQ_DEPTH=128 VSYM_TRANSPORT=verbs launch/vsym-run -n 2 -- $pre $B/benches/vsym-bench put-nbi --mode bw -s 64K --window 1024 -D 2 2>&1 | grep -E '^ +65536' | head -1)
    echo "put-nbi $v: $x" >> $OUT/res.txt
  done
done
