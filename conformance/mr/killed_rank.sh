#!/usr/bin/env bash
# A rank killed by SIGKILL leaves nothing in /dev/shm or /tmp, and the surviving ranks' waits
# time out naming it (they print that before the launcher tears the job down).
set -u
run="$1"; bin="$2"
before_shm=$(ls -A /dev/shm | grep -i vsym | sort); before_tmp=$(ls -A /tmp | grep -i vsym | sort)
out=$("$run" -n 2 --timeout 60 --keep-going -- "$bin" --kill 2>&1); rc=$?
echo "$out" | tail -5
echo "$out" | grep -q "timed out as expected" || { echo "FAIL: the surviving rank did not report the timeout"; exit 1; }
after_shm=$(ls -A /dev/shm | grep -i vsym | sort); after_tmp=$(ls -A /tmp | grep -i vsym | sort)
[ "$before_shm" = "$after_shm" ] || { echo "FAIL: /dev/shm changed: $after_shm"; exit 1; }
[ "$before_tmp" = "$after_tmp" ] || { echo "FAIL: /tmp has vsym files: $after_tmp"; exit 1; }
echo "PASS: killed rank left nothing behind"
