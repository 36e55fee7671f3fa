#!/bin/bash
# Same-run A/B of the fused rule's Intel sizes (stop 51): OLD=vsym-bench at 80809d0, NEW=with the
# rule, launches taking turns (ab_round), ROUNDS rounds (default 8): the fused pairs on 4 ranks
# (2 x 2) on the 2 CPUs, f16, 512 B-64 KiB. AB_TUNE=1 (the default here): each launch with a fresh
# autotune table, which starts from the rule; AB_TUNE=0: AUTO is the rule itself.
#   OLD=/path/old/vsym-bench NEW=build/benches/vsym-bench OUT=dir bash ab_rule.sh
# Then: python3 ../dev-2core-intel-2026-11-29-stop50/ab_tune_table.py OUT
set -eu
source "$(dirname "$0")/../ab_round.sh"
ab_start 8
export AB_TUNE=${AB_TUNE:-1}
for i in $(seq 1 "$ROUNDS"); do
    ab_round "$i" aa 4 fused --op allreduce_allgather --dtype f16 -b 512 -e 64K -f 2 -n 300
    ab_round "$i" ra 4 fused --op reducescatter_allreduce --dtype f16 -b 512 -e 64K -f 2 -n 300
    echo "round $i done $(date +%T)"
done
