#!/bin/bash
# Same-run A/B of the autotune's third look at isolated entries (stop 50, not landed:
# tune_isolated.patch): OLD=vsym-bench at
# 2c5d81d, NEW=with it, launches taking turns (ab_round), each with a fresh autotune table
# (AB_TUNE=1: its AUTO rows are its own tuning's), ROUNDS rounds (default 8): the fused pairs on
# 4 ranks (2 x 2) on the 2 CPUs, f16, 8 B-256 KiB.
#   OLD=/path/old/vsym-bench NEW=build/benches/vsym-bench OUT=dir bash ab_tune.sh
# Then: python3 ab_tune_table.py OUT
set -eu
source "$(dirname "$0")/../ab_round.sh"
ab_start 8
export AB_TUNE=1
for i in $(seq 1 "$ROUNDS"); do
    ab_round "$i" aa 4 fused --op allreduce_allgather --dtype f16 -b 8 -e 256K -f 8 -n 500
    ab_round "$i" ra 4 fused --op reducescatter_allreduce --dtype f16 -b 8 -e 256K -f 8 -n 500
    echo "round $i done $(date +%T)"
done
