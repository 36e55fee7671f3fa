#!/bin/bash
# Stop 40: VSYM_PUBLISH_STREAM auto from the team's line round trip, A/B on this host. ROUNDS
# rounds; in each, every collective's sweep at 2 ranks (16 KiB-16 MiB by 4, ordinary and
# symmetric buffers, out of place and in place) by each build, the order of the builds turning
# every round. Each record carries the bench's own core_rtt_ns (near or far at that size).
#   OLD=... NEW=... OUT=/tmp/ab results/coll/dev-2core-zen5-2026-11-28-stop40/ab_rtt.sh 6
set -u
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
mkdir -p "$OUT"
for i in $(seq 1 "${1:-6}"); do
  if [ $((i % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for s in allreduce allgather reduce-scatter alltoall broadcast; do
    for v in $order; do
      bin=$OLD; [ $v = new ] && bin=$NEW
      "$root/launch/vsym-run" -n 2 -- "$bin" $s -b 16K -e 16M -f 4 -n 50 --quiet \
        --json "$OUT/${v}_${s}_$i.json" > /dev/null 2>&1 || echo "launch $v $s $i failed"
    done
  done
done
