#!/bin/bash
# Third VM boot of stop 24: (1) the push exchange with three peers over verbs (4 ranks on one
# device, VSYM_TRANSPORT=verbs, one-shot forced), this tree against an older build, ordinary and
# symmetric buffers: from symmetric buffers the puts now go non-blocking with one quiet, instead
# of waiting for each peer's transfer in turn; (2) one-shot against HIER at 2 x 2 ranks below
# 4 KiB (limit.sh covered 4-64 KiB). Run on the host:
#   launch/vsym-softroce --nodes 2 --mem 4096 --timeout 3000 --rw OUT -- \
#       results/coll/softroce-2core-zen3-2026-11-26-stop24/peers.sh BUILD OUT OLD_BUILD
set -u
B=$(cd "${1:?usage: peers.sh BUILD OUT OLD_BUILD}" && pwd); O=$(cd "${2:?}" && pwd)
OLD=$(cd "${3:?}" && pwd)
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../../.." && pwd); cd "$top"
export VSYM_HEAP_SIZE=64M VSYM_INTERNAL_SIZE=16M
T="timeout 900"
(uname -r; nproc; git -C "$top" rev-parse --short HEAD; echo "$B $OLD"; ibv_devices) > "$O/host3.txt" 2>&1
for round in 1 2; do
  for lb in "vsym=$B" "old=$OLD"; do
    l=${lb%%=*}; d=${lb#*=}
    $T env VSYM_TRANSPORT=verbs launch/vsym-run -n 4 -- "$d/benches/vsym-bench" allreduce \
      --algo oneshot -b 16K -e 256K -f 4 -n 10 --check --json "$O/${l}_peers3_r$round.jsonl" \
      > "$O/${l}_peers3_r$round.txt" 2>&1
    echo "$l peers3 r$round: $?"
  done
  for a in oneshot hier; do
    $T env VSYM_VIRTUAL_NODES=2 launch/vsym-run -n 4 -- "$B/benches/vsym-bench" allreduce --algo $a \
      -b 256 -e 4K -f 4 -n 10 --check --json "$O/small_${a}_r$round.jsonl" \
      > "$O/small_${a}_r$round.txt" 2>&1
    echo "small $a r$round: $?"
  done
done
echo done
