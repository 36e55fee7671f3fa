#!/bin/bash
# Same-run A/B of the non-temporal copy without prefetchnta on Intel CPUs and the last-level
# cache counted at most 32 MiB a CPU (stop 50): OLD=vsym-bench built at 61a3fa6, NEW=the change,
# launches taking turns (ab_round), ROUNDS rounds (default 4): the put's window bandwidth with
# VSYM_NT_THRESHOLD=1 (every put non-temporal) and auto, and the collectives at 4-64 MiB on 2
# ranks (4 ranks: the all-reduce), f32, with --check.
#   OLD=/path/old/vsym-bench NEW=build/benches/vsym-bench OUT=dir bash ab_nt.sh
# Then: python3 ../dev-2core-zen5-2026-11-28-stop49/ab_split_table.py OUT
set -eu
source "$(dirname "$0")/../ab_round.sh"
ab_start 4
for i in $(seq 1 "$ROUNDS"); do
    VSYM_NT_THRESHOLD=1 ab_round "$i" putnt 2 put --mode bw -b 1M -e 64M -f 4 -n 20
    ab_round "$i" put 2 put --mode bw -b 1M -e 64M -f 4 -n 20
    ab_round "$i" ar2 2 allreduce --dtype f32 -b 4M -e 64M -f 2 -n 20 --check
    ab_round "$i" ar4 4 allreduce --dtype f32 -b 4M -e 64M -f 4 -n 10 --check
    ab_round "$i" ag2 2 allgather --dtype f32 -b 4M -e 64M -f 2 -n 20 --check
    ab_round "$i" rs2 2 reduce-scatter --dtype f32 -b 4M -e 64M -f 2 -n 20 --check
    ab_round "$i" bc2 2 broadcast --dtype f32 -b 4M -e 64M -f 2 -n 20 --check
    ab_round "$i" a2a2 2 alltoall --dtype f32 -b 4M -e 64M -f 2 -n 20 --check
    echo "round $i done $(date +%T)"
done
