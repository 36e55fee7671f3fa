#!/bin/bash
# Same-run A/B of the all-reduce beyond 2 ranks sharing cores (stop 51: two-shot instead of the
# ring from 2 MiB, not on AMD CPUs): OLD=vsym-bench before it, NEW=with it, launches taking turns
# (ab_round), ROUNDS rounds (default 6): 3 and 4 ranks on the 2 CPUs, f32, 1-32 MiB.
#   OLD=/path/old/vsym-bench NEW=build/benches/vsym-bench OUT=dir bash ab_ar.sh
# Then: python3 ../dev-2core-zen5-2026-11-28-stop49/ab_split_table.py OUT
set -eu
source "$(dirname "$0")/../ab_round.sh"
ab_start 6
for i in $(seq 1 "$ROUNDS"); do
    ab_round "$i" ar4 4 allreduce -b 1M -e 32M -f 2 -n 30
    ab_round "$i" ar3 3 allreduce -b 1M -e 32M -f 2 -n 30
    echo "round $i done $(date +%T)"
done
