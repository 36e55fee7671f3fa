#!/bin/bash
# Stop 39: the autotune's second look, A/B on this host. ROUNDS launches of each build's
# vsym-bench fused at 4 ranks (8 B-1 MiB by 8), each with a fresh autotune table, the order of
# the builds turning every round. OLD, NEW: the two vsym-bench binaries; OUT: records and tables.
#   OLD=... NEW=... OUT=/tmp/ab results/coll/dev-2core-zen4-2026-11-27-stop39/ab_tune.sh 6
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../ab_round.sh"
mkdir -p "$OUT"
for i in $(seq 1 "${1:-6}"); do
  AB_TUNE=1 ab_round "$i" "" 4 fused -b 8 -e 1M -f 8
done
