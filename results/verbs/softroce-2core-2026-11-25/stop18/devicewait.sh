#!/bin/bash
# Stop 18: the verbs transport's waits for its own completions poll without yielding where every
# rank has a core (vsym_backoff_init_device). Old binary (OLD, commit 2b7f386's vsym-bench) and new
# (build/) take turns in one guest, next to perftest: 64 KiB put/get windows (1024 ops, depth 128),
# the 8 B put ping-pong, and a workload where both ranks wait on the NIC at once (copy ring, 2
# ranks, 4 MiB each way). Run in the guest:
#   launch/vsym-softroce --mem 4096 --rw OUT --env VSYM_HEAP_SIZE=64M --env VSYM_INTERNAL_SIZE=16M
#     -- results/verbs/softroce-2core-2026-11-25/stop18/devicewait.sh OUT OLD_BINARY
OUT=$1; OLD=$2; here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../../../.." && pwd); cd "$top"
NEW=$top/build/benches/vsym-bench
ROUNDS=${ROUNDS:-3}
pt() { $1 -d rxe0 -x 0 $2 > /dev/null 2>&1 & sleep 1; $1 -d rxe0 -x 0 $2 127.0.0.1 | grep -E "^ +$3 "; wait; }
vs() { VSYM_SQ_DEPTH=128 VSYM_TRANSPORT=verbs launch/vsym-run -n 2 -- "$@" 2>&1; }
for r in $(seq $ROUNDS); do
  echo "round $r" >> $OUT/res.txt
  echo "pt write            $(pt ib_write_bw '-s 65536 -n 1024' 65536)" >> $OUT/res.txt
  for v in old new; do b=$NEW; [ $v = old ] && b=$OLD
    echo "vsym put $v        $(vs $b put-nbi --mode bw -s 64K --window 1024 -D 2 | grep -E '^ +65536' | head -1)" >> $OUT/res.txt; done
  echo "pt read             $(pt ib_read_bw '-s 65536 -n 1024' 65536)" >> $OUT/res.txt
  for v in old new; do b=$NEW; [ $v = old ] && b=$OLD
    echo "vsym get $v        $(vs $b get-nbi --mode bw -s 64K --window 1024 -D 2 | grep -E '^ +65536' | head -1)" >> $OUT/res.txt; done
  echo "pt lat              $(pt ib_write_lat '-s 8 -n 2000' 8)" >> $OUT/res.txt
  for v in old new; do b=$NEW; [ $v = old ] && b=$OLD
    echo "vsym lat $v        $(vs $b put --mode lat -s 8 -D 2 | awk '/pingpong/{f=1;next} f&&/^ +8 /{print;exit}')" >> $OUT/res.txt; done
  for v in old new; do b=$NEW; [ $v = old ] && b=$OLD
    echo "vsym copy $v       $(vs $b copy --pattern ring -s 4M -n 5 -w 1 --check | grep -E '^ +4194304' | head -1)" >> $OUT/res.txt; done
done
cat $OUT/res.txt
