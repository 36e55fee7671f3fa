#!/bin/bash
# Stop 18: where the CPU time goes in 64 KiB windows, and whether binding ranks to vCPUs matters.
# Run in the guest: launch/vsym-softroce --mem 4096 --rw OUT --env VSYM_HEAP_SIZE=64M
#   --env VSYM_INTERNAL_SIZE=16M -- results/verbs/softroce-2core-2026-11-25/stop18/bind.sh OUT
# Each line of OUT/res.txt: variant, the figure (MB/s), then per-CPU jiffies of the run
# (user nice system idle iowait irq softirq) from /proc/stat.
OUT=$1; here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../../../.." && pwd); B=$top/build; cd "$top"
ROUNDS=${ROUNDS:-4}
snap() { grep -E '^cpu[0-9]' /proc/stat | awk '{print $2,$3,$4,$5,$6,$7,$8}'; }
delta() { paste -d' ' <(echo "$1") <(echo "$2") | awk '{printf "[u%d s%d i%d si%d] ", $8-$1, $10-$3, $11-$4, $14-$7}'; }
timed() { local a b r; a=$(snap); r=$("$@" 2>&1 | grep -E '^ +65536' | head -1); b=$(snap); echo "$r :: $(delta "$a" "$b")"; }
pt() { # tool, server cpu list, client cpu list
  local tool=$1 sc=$2 cc=$3
  taskset -c $sc $tool -d rxe0 -x 0 -s 65536 -n 1024 > /dev/null 2>&1 & sleep 1
  timed taskset -c $cc $tool -d rxe0 -x 0 -s 65536 -n 1024 127.0.0.1; wait; }
vs() { # suite, bind
  timed env VSYM_SQ_DEPTH=128 VSYM_TRANSPORT=verbs VSYM_DEVICE=rxe0 mpirun --allow-run-as-root --oversubscribe --bind-to $2 -np 2 \
    -x VSYM_SQ_DEPTH -x VSYM_TRANSPORT -x VSYM_DEVICE -x VSYM_HEAP_SIZE -x VSYM_INTERNAL_SIZE \
    $B/benches/vsym-bench $1 --mode bw -s 64K --window 1024 -D 2; }
for r in $(seq $ROUNDS); do
  echo "round $r" >> $OUT/res.txt
  echo "pt write free      $(pt ib_write_bw 0-1 0-1)" >> $OUT/res.txt
  echo "pt write bound     $(pt ib_write_bw 1 0)" >> $OUT/res.txt
  echo "vsym put-nbi core  $(vs put-nbi core)" >> $OUT/res.txt
  echo "vsym put-nbi none  $(vs put-nbi none)" >> $OUT/res.txt
  echo "pt read free       $(pt ib_read_bw 0-1 0-1)" >> $OUT/res.txt
  echo "pt read bound      $(pt ib_read_bw 1 0)" >> $OUT/res.txt
  echo "vsym get-nbi core  $(vs get-nbi core)" >> $OUT/res.txt
  echo "vsym get-nbi none  $(vs get-nbi none)" >> $OUT/res.txt
done
cat $OUT/res.txt
