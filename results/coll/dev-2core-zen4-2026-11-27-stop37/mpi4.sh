#!/bin/bash
# Stop 37 (from the repository root): [NP=4] mpi4.sh OUT SECONDS: rounds of vsym-bench and mpi-coll
# all-reduce at NP ranks, 16 B-64 MiB by 4, order alternating, the cores' round trip (rtt.c) before
# and after each launch in the file name.
. "$(dirname "$0")/rtt_setup.sh"
out=$1; end=$(( $(date +%s) + $2 )); i=0
while [ $(date +%s) -lt $end ]; do
  i=$((i+1))
  ws="vsym mpi"; [ $((i % 2)) -eq 0 ] && ws="mpi vsym"
  for w in $ws; do
    if [ $w = vsym ]; then
      timed $out ${w}_r$i timeout 300 launch/vsym-run -n ${NP:-4} -- build/benches/vsym-bench \
        allreduce -b 16 -e 64M -f 4 --check --json $out/tmp.jsonl
    else
      timed $out ${w}_r$i timeout 300 launch/vsym-run -n ${NP:-4} -- build/benches/peers/mpi-coll \
        --only allreduce -b 16 -e 64M -f 4 --json $out/tmp.jsonl
    fi
  done
done
