#!/bin/bash
# Latency experiment in the Soft-RoCE guest: ib_write_lat vs vsym put ping-pong, variants.
OUT=$1; here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../../../.." && pwd); B=$top/build; cd "$top"
cat /sys/devices/system/clocksource/clocksource0/current_clocksource > $OUT/clocksource.txt
cat /sys/devices/system/clocksource/clocksource0/available_clocksource >> $OUT/clocksource.txt
for r in 1 2 3; do
  ib_write_lat -d rxe0 -x 0 -s 8 -n 2000 > $OUT/srv$r.txt 2>&1 &
  sleep 1
  ib_write_lat -d rxe0 -x 0 -s 8 -n 2000 127.0.0.1 > $OUT/lat$r.txt 2>&1
  wait
  VSYM_TRANSPORT=verbs launch/vsym-run -n 2 -- $B/benches/vsym-bench put --mode lat -s 8 -n 2000 > $OUT/vsym$r.txt 2>&1
  VSYM_SPIN_COUNT=1000000000 VSYM_TRANSPORT=verbs launch/vsym-run -n 2 -- $B/benches/vsym-bench put --mode lat -s 8 -n 2000 > $OUT/vsymspin$r.txt 2>&1
done
