#!/usr/bin/env bash
# A rank killed by SIGKILL leaves nothing in /dev/shm or /tmp, and the surviving ranks' waits
# time out naming it (they print that before the launcher tears the job down).
# Where a private mount namespace can be made (root, unshare), the job runs in one with a fresh
# /dev/shm and /tmp (/tmp kept where the build lives under it): only this job's files are then
# looked at, whatever other jobs on the machine create and remove meanwhile.
set -u
run="$1"; bin="$2"
if [ -z "${KILLED_RANK_PRIVATE_NS:-}" ] && unshare -m --propagation private true 2>/dev/null; then
  exec env KILLED_RANK_PRIVATE_NS=1 unshare -m --propagation private bash "$0" "$@"
fi
if [ -n "${KILLED_RANK_PRIVATE_NS:-}" ]; then
  mount -t tmpfs vsym-killed-shm /dev/shm || exit 1
  case "$run $bin $0" in
    */tmp/*) echo "# /tmp kept: the build lives under it (compared before and after)" ;;
    *) mount -t tmpfs vsym-killed-tmp /tmp || exit 1; echo "# fresh /dev/shm and /tmp" ;;
  esac
fi
before_shm=$(ls -A /dev/shm | grep -i vsym | sort); before_tmp=$(ls -A /tmp | grep -i vsym | sort)
out=$("$run" -n 2 --timeout 60 --keep-going -- "$bin" --kill 2>&1); rc=$?
echo "$out" | tail -5
echo "$out" | grep -q "timed out as expected" || { echo "FAIL: the surviving rank did not report the timeout"; exit 1; }
after_shm=$(ls -A /dev/shm | grep -i vsym | sort); after_tmp=$(ls -A /tmp | grep -i vsym | sort)
[ "$before_shm" = "$after_shm" ] || { echo "FAIL: /dev/shm changed: $after_shm"; exit 1; }
[ "$before_tmp" = "$after_tmp" ] || { echo "FAIL: /tmp has vsym files: $after_tmp"; exit 1; }
echo "PASS: killed rank left nothing behind"
