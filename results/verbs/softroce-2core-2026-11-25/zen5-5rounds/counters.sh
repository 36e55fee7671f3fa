#!/bin/bash
# In the Soft-RoCE guest: put-nbi / put windows of 64 KiB against ib_write_bw, with rxe's
# hardware counters read around each run (retransmissions, sequence errors, RNR).
OUT=$1; here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../../../.." && pwd); B=$top/build; cd "$top"
hw() { for f in /sys/class/infiniband/rxe0/ports/1/hw_counters/*; do printf "%s=%s " "$(basename $f)" "$(cat $f)"; done; echo; }
run() { tag=$1; shift; echo "== $tag" >> $OUT/hw.txt; hw >> $OUT/hw.txt; "$@" > $OUT/$tag.txt 2>&1; hw >> $OUT/hw.txt; }
pt() { ib_write_bw -d rxe0 -x 0 -s 65536 -n 1024 > $OUT/$1.server 2>&1 & sleep 1; ib_write_bw -d rxe0 -x 0 -s 65536 -n 1024 127.0.0.1; wait; }
for r in 1 2; do
  run pt-r$r pt pt-r$r
  for d in 128 32; do
    run nbi-d$d-r$r env VSYM_SQ_DEPTH=$d VSYM_TRANSPORT=verbs launch/vsym-run -n 2 -- $B/benches/vsym-bench put-nbi --mode bw -s 64K --window 1024 -D 2
  done
  run blk-r$r env VSYM_TRANSPORT=verbs launch/vsym-run -n 2 -- $B/benches/vsym-bench put --mode bw -s 64K -D 2
  run nbi64-r$r env VSYM_TRANSPORT=verbs launch/vsym-run -n 2 -- $B/benches/vsym-bench put-nbi --mode bw -s 64K -D 2
done
