#!/bin/bash
# Stop 39: the autotune's second look, A/B on this host. ROUNDS launches of each build's
# vsym-bench fused at 4 ranks (8 B-1 MiB by 8), each with a fresh autotune table, the order of
# the builds turning every round. OLD, NEW: the two vsym-bench binaries; OUT: records and tables.
#   OLD=... NEW=... OUT=/tmp/ab results/coll/dev-2core-zen4-2026-11-27-stop39/ab_tune.sh 6
set -u
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
mkdir -p "$OUT"
for i in $(seq 1 "${1:-6}"); do
  if [ $((i % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for v in $order; do
    bin=$OLD; [ $v = new ] && bin=$NEW
    rm -f "$OUT/at_${v}_$i.txt"
    VSYM_AUTOTUNE_FILE="$OUT/at_${v}_$i.txt" "$root/launch/vsym-run" -n 4 -- "$bin" fused -b 8 \
      -e 1M -f 8 --json "$OUT/${v}_$i.json" > /dev/null 2>&1 || echo "launch $v $i failed"
  done
done
