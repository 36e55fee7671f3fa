#!/bin/bash
# Same-run A/B of the 2-rank broadcast's LL limit: OLD=vsym-bench with 64 B (89d52ce), NEW=with
# 256 B, launches taking turns (ab_round: old first in odd rounds), ROUNDS rounds (default 8), 2
# ranks, f32, 8 B-2 KiB by 2, -n 5000, --check; in each round Open MPI's MPI_Bcast (mpi-coll) at
# the same sizes, and the line round trip between the two CPUs before (rtt.c of stop 37).
#   OLD=... NEW=... OUT=dir bash ab_bcll.sh; then python3 ab_bcll_table.py OUT
set -eu
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../ab_round.sh"
: "${OLD:?}" "${NEW:?}" "${OUT:?}" "${ROUNDS:=8}"
mkdir -p "$OUT"
rtt=$OUT/rtt
gcc -O2 -pthread "$here/../dev-2core-zen4-2026-11-27-stop37/rtt.c" -o "$rtt"
mpi=$here/../../../build/benches/peers/mpi-coll
for i in $(seq 1 "$ROUNDS"); do
    echo "$i $("$rtt")" >> "$OUT/rtt.txt"
    ab_round "$i" bc 2 broadcast --dtype f32 -b 8 -e 2K -f 2 -n 5000 --check
    mpirun --allow-run-as-root --oversubscribe -np 2 "$mpi" -b 8 -e 2K -f 2 -n 5000 \
        --only broadcast --json "$OUT/mpi_bc_$i.json" > /dev/null 2>&1 || echo "mpi $i failed"
done
rm -f "$rtt"
