#!/bin/bash
# Same-run A/B of lib/coll split into files (stop 49): OLD=vsym-bench built at b0f5ba3 (coll.c
# whole), NEW=the split, launches taking turns (ab_round), ROUNDS rounds (default 5), every
# collective on 2 and 4 ranks and the fused pairs on 4, f32, with --check.
#   OLD=/path/old/vsym-bench NEW=build/benches/vsym-bench OUT=dir bash ab_split.sh
# Then: python3 ab_split_table.py OUT
set -eu
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../ab_round.sh"
: "${OLD:?}" "${NEW:?}" "${OUT:?}" "${ROUNDS:=5}"
mkdir -p "$OUT"
for i in $(seq 1 "$ROUNDS"); do
    ab_round "$i" ar2 2 allreduce --dtype f32 -b 8 -e 32M -f 8 -n 200 --check
    ab_round "$i" ar4 4 allreduce --dtype f32 -b 8 -e 4M -f 8 -n 200 --check
    ab_round "$i" ag4 4 allgather --dtype f32 -b 64 -e 4M -f 16 -n 200 --check
    ab_round "$i" bc4 4 broadcast --dtype f32 -b 8 -e 4M -f 16 -n 200 --check
    ab_round "$i" rs2 2 reduce-scatter --dtype f32 -b 64 -e 4M -f 16 -n 200 --check
    ab_round "$i" a2a4 4 alltoall --dtype f32 -b 64 -e 4M -f 16 -n 200 --check
    ab_round "$i" fu4 4 fused --op reducescatter_allreduce --dtype f32 -b 1K -e 256K -f 4 -n 200
    echo "round $i done $(date +%T)"
done
