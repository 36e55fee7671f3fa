#!/bin/bash
# Stop 40: the all-reduce of symmetric buffers out of place streamed from 1 MiB a rank where the
# team's cores are far, A/B on this host: ROUNDS rounds of vsym-bench allreduce at 2 ranks (256
# KiB-32 MiB by 2) by each build, the order turning every round; records carry core_rtt_ns.
#   OLD=... NEW=... OUT=/tmp/abzc results/coll/dev-2core-zen5-2026-11-28-stop40/ab_zc.sh 6
set -u
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
mkdir -p "$OUT"
for i in $(seq 1 "${1:-6}"); do
  if [ $((i % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for v in $order; do
    bin=$OLD; [ $v = new ] && bin=$NEW
    "$root/launch/vsym-run" -n 2 -- "$bin" allreduce -b 256K -e 32M -f 2 -n 30 --quiet \
      --json "$OUT/${v}_allreduce_$i.json" > /dev/null 2>&1 || echo "launch $v $i failed"
  done
done
