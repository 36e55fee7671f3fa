#!/bin/bash
OUT=$1; here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../../../.." && pwd); B=$top/build; cd "$top"
VSYM_SQ_DEPTH=128 VSYM_TRANSPORT=verbs launch/vsym-run -n 2 -- $B/benches/vsym-bench put-nbi --mode bw -s 64K --window 1024 -D 6 > $OUT/bench.txt 2>&1 &
sleep 4; top -b -n 2 -d 2 > $OUT/top-vsym.txt; wait
ib_write_bw -d rxe0 -x 0 -s 65536 -D 8 > /dev/null 2>&1 & sleep 1; ib_write_bw -d rxe0 -x 0 -s 65536 -D 8 127.0.0.1 > $OUT/pt.txt 2>&1 &
sleep 4; top -b -n 2 -d 2 > $OUT/top-pt.txt; wait
