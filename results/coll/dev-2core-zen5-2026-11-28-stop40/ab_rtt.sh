#!/bin/bash
# Stop 40: VSYM_PUBLISH_STREAM auto from the team's line round trip, A/B on this host. ROUNDS
# rounds; in each, every collective's sweep at 2 ranks (16 KiB-16 MiB by 4, ordinary and
# symmetric buffers, out of place and in place) by each build, the order of the builds turning
# every round. Each record carries the bench's own core_rtt_ns (near or far at that size).
#   OLD=... NEW=... OUT=/tmp/ab results/coll/dev-2core-zen5-2026-11-28-stop40/ab_rtt.sh 6
# The symmetric all-reduce's A/B (records_ab_zc.txz) ran it as
#   SUITES=allreduce SWEEP="-b 256K -e 32M -f 2 -n 30" OLD=... NEW=... OUT=... ab_rtt.sh 6
# NP=4: at 4 ranks (stop 41's A/B, ranks sharing the 2 cores).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../ab_round.sh"
mkdir -p "$OUT"
for i in $(seq 1 "${1:-6}"); do
  for s in ${SUITES:-allreduce allgather reduce-scatter alltoall broadcast}; do
    # shellcheck disable=SC2086
    ab_round "$i" "$s" "${NP:-2}" "$s" ${SWEEP:--b 16K -e 16M -f 4 -n 50} --quiet
  done
done
