#!/bin/bash
# Stop 18: does the waiting initiator's yielding slow Soft-RoCE? 64 KiB windows (1024 puts or
# gets, depth 128) with per-rank wait settings (mpirun MPMD): both ranks as by default; rank 0 (the
# initiator) never yielding (VSYM_SPIN_COUNT=10^9) while rank 1 (the target) yields at once (0),
# as perftest's client spins on its CQ while its server sleeps; next to ib_write_bw / ib_read_bw.
# Run in the guest: launch/vsym-softroce --mem 4096 --rw OUT --env VSYM_HEAP_SIZE=64M
#   --env VSYM_INTERNAL_SIZE=16M -- results/verbs/softroce-2core-2026-11-25/stop18/spinroles.sh OUT
OUT=$1; here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../../../.." && pwd); B=$top/build; cd "$top"
ROUNDS=${ROUNDS:-4}
pt() { $1 -d rxe0 -x 0 -s 65536 -n 1024 > /dev/null 2>&1 & sleep 1
  $1 -d rxe0 -x 0 -s 65536 -n 1024 127.0.0.1 | grep -E '^ +65536'; wait; }
vs() { # suite, rank-0 spin count, rank-1 spin count
  local x="-x VSYM_SQ_DEPTH -x VSYM_TRANSPORT -x VSYM_DEVICE -x VSYM_HEAP_SIZE -x VSYM_INTERNAL_SIZE"
  local a="$B/benches/vsym-bench $1 --mode bw -s 64K --window 1024 -D 2"
  VSYM_SQ_DEPTH=128 VSYM_TRANSPORT=verbs mpirun --allow-run-as-root --oversubscribe --bind-to core \
    $x -x VSYM_SPIN_COUNT=$2 -np 1 $a : $x -x VSYM_SPIN_COUNT=$3 -np 1 $a 2>&1 | grep -E '^ +65536' | head -1; }
for r in $(seq $ROUNDS); do
  echo "round $r" >> $OUT/res.txt
  echo "pt write           $(pt ib_write_bw)" >> $OUT/res.txt
  echo "vsym put default   $(vs put-nbi -1 -1)" >> $OUT/res.txt
  echo "vsym put spin/0    $(vs put-nbi 1000000000 0)" >> $OUT/res.txt
  echo "pt read            $(pt ib_read_bw)" >> $OUT/res.txt
  echo "vsym get default   $(vs get-nbi -1 -1)" >> $OUT/res.txt
  echo "vsym get spin/0    $(vs get-nbi 1000000000 0)" >> $OUT/res.txt
done
cat $OUT/res.txt
