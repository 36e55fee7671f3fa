#!/bin/bash
# Stop 18, a longer look at the waits by role (spinroles.sh): 8 rounds, 64 KiB put and get windows
# (1024 ops, depth 128), per-rank VSYM_SPIN_COUNT (mpirun MPMD) initiator/target: -1/-1 (default),
# 10^9/-1 (the initiator never yields, the target as by default), 10^9/0 (the target yields at
# once), next to ib_write_bw / ib_read_bw. Run in the guest like spinroles.sh.
OUT=$1; here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../../../.." && pwd); B=$top/build; cd "$top"
ROUNDS=${ROUNDS:-8}
pt() { $1 -d rxe0 -x 0 -s 65536 -n 1024 > /dev/null 2>&1 & sleep 2
  $1 -d rxe0 -x 0 -s 65536 -n 1024 127.0.0.1 | grep -E '^ +65536'; wait; }
vs() { # suite, rank-0 spin count, rank-1 spin count
  local x="-x VSYM_SQ_DEPTH -x VSYM_TRANSPORT -x VSYM_DEVICE -x VSYM_HEAP_SIZE -x VSYM_INTERNAL_SIZE"
  local a="$B/benches/vsym-bench $1 --mode bw -s 64K --window 1024 -D 2"
  VSYM_SQ_DEPTH=128 VSYM_TRANSPORT=verbs mpirun --allow-run-as-root --oversubscribe --bind-to core \
    $x -x VSYM_SPIN_COUNT=$2 -np 1 $a : $x -x VSYM_SPIN_COUNT=$3 -np 1 $a 2>&1 | grep -E '^ +65536' | head -1; }
for r in $(seq $ROUNDS); do
  echo "round $r" >> $OUT/res.txt
  echo "pt write           $(pt ib_write_bw)" >> $OUT/res.txt
  for v in "-1 -1" "1000000000 -1" "1000000000 0"; do
    echo "vsym put ${v/ /\/}  $(vs put-nbi $v)" >> $OUT/res.txt; done
  echo "pt read            $(pt ib_read_bw)" >> $OUT/res.txt
  for v in "-1 -1" "1000000000 -1" "1000000000 0"; do
    echo "vsym get ${v/ /\/}  $(vs get-nbi $v)" >> $OUT/res.txt; done
done
cat $OUT/res.txt
