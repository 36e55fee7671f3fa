#!/bin/bash
OUT=$1; here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../../../.." && pwd); B=$top/build; cd "$top"
pt() { ib_write_bw -d rxe0 -x 0 -s 65536 -n 1024 > /dev/null 2>&1 & sleep 1; ib_write_bw -d rxe0 -x 0 -s 65536 -n 1024 127.0.0.1 | grep -E "^ 65536"; wait; }
ptr() { ib_read_bw -d rxe0 -x 0 -s 65536 -n 1024 > /dev/null 2>&1 & sleep 1; ib_read_bw -d rxe0 -x 0 -s 65536 -n 1024 127.0.0.1 | grep -E "^ 65536"; wait; }
for r in 1 2 3; do
  echo "pt write $(pt)" >> $OUT/res.txt
  echo "pt read $(ptr)" >> $OUT/res.txt
  for sc in -1 16 1000; do
    for s in put-nbi get-nbi; do
      x=$(VSYM_SPIN_COUNT=$sc VSYM_SQ_DEPTH=128 VSYM_TRANSPORT=verbs launch/vsym-run -n 2 -- $B/benches/vsym-bench $s --mode bw -s 64K --window 1024 -D 2 2>&1 | grep -E '^ +65536' | head -1)
      echo "$s spin $sc: $x" >> $OUT/res.txt
    done
  done
done
