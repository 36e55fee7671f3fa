#!/bin/bash
# Stop 18, second check of devicewait.sh's mixed rows: 64 KiB get windows and the 2-rank copy ring
# (both ranks waiting on the NIC), old binary (OLD) and new (build/) in turns, 5 rounds, with
# ib_read_bw. Run in the guest like devicewait.sh: devicewait2.sh OUT OLD_BINARY
OUT=$1; OLD=$2; here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../../../.." && pwd); cd "$top"
NEW=$top/build/benches/vsym-bench
ROUNDS=${ROUNDS:-5}
pt() { $1 -d rxe0 -x 0 $2 > /dev/null 2>&1 & sleep 2; $1 -d rxe0 -x 0 $2 127.0.0.1 | grep -E "^ +$3 "; wait; }
vs() { VSYM_SQ_DEPTH=128 VSYM_TRANSPORT=verbs launch/vsym-run -n 2 -- "$@" 2>&1; }
for r in $(seq $ROUNDS); do
  echo "round $r" >> $OUT/res.txt
  echo "pt read             $(pt ib_read_bw '-s 65536 -n 1024' 65536)" >> $OUT/res.txt
  for v in old new; do b=$NEW; [ $v = old ] && b=$OLD
    echo "vsym get $v        $(vs $b get-nbi --mode bw -s 64K --window 1024 -D 2 | grep -E '^ +65536' | head -1)" >> $OUT/res.txt; done
  for v in old new; do b=$NEW; [ $v = old ] && b=$OLD
    echo "vsym copy $v       $(vs $b copy --pattern ring -s 4M -n 5 -w 1 --check | grep -E '^ +4194304' | head -1)" >> $OUT/res.txt; done
done
cat $OUT/res.txt
