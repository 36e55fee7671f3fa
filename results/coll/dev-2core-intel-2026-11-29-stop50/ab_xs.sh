#!/bin/bash
# Same-run A/B of stop 50's second change: OLD=vsym-bench at b11a7d3, NEW=with the copies out of
# the peers' symmetric buffers streamed by the VSYM_NT_THRESHOLD rule on every CPU (not on AMD
# only) and the 2-rank all-reduce in place one-shot where the rule gave the ring (not on AMD),
# launches taking turns (ab_round), ROUNDS rounds (default 4), 2 ranks, f32, --check.
#   OLD=/path/old/vsym-bench NEW=build/benches/vsym-bench OUT=dir bash ab_xs.sh
# Then: python3 ../dev-2core-zen5-2026-11-28-stop49/ab_split_table.py OUT
set -eu
source "$(dirname "$0")/../ab_round.sh"
ab_start 4
for i in $(seq 1 "$ROUNDS"); do
    ab_round "$i" ar2 2 allreduce --dtype f32 -b 256K -e 32M -f 2 -n 20 --check
    ab_round "$i" ag2 2 allgather --dtype f32 -b 8M -e 64M -f 2 -n 20 --check
    ab_round "$i" bc2 2 broadcast --dtype f32 -b 8M -e 64M -f 2 -n 20 --check
    ab_round "$i" a2a2 2 alltoall --dtype f32 -b 8M -e 64M -f 2 -n 20 --check
    echo "round $i done $(date +%T)"
done
