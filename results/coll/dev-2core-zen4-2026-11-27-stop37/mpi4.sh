#!/bin/bash
# [NP=4] mpi4.sh OUT SECONDS: rounds of vsym-bench and mpi-coll all-reduce at NP ranks, 16 B-64 MiB by 4,
# order alternating, the cores' round trip (rtt.c) before and after each launch in the file name.
out=$1; end=$(( $(date +%s) + $2 )); i=0
cd /work/main
while [ $(date +%s) -lt $end ]; do
  i=$((i+1))
  ws="vsym mpi"; [ $((i % 2)) -eq 0 ] && ws="mpi vsym"
  for w in $ws; do
    a=$(/tmp/rtt)
    if [ $w = vsym ]; then
      timeout 300 launch/vsym-run -n ${NP:-4} -- build/benches/vsym-bench allreduce -b 16 -e 64M -f 4 --check --json $out/tmp.jsonl >/dev/null 2>&1
    else
      timeout 300 launch/vsym-run -n ${NP:-4} -- build/benches/peers/mpi-coll --only allreduce -b 16 -e 64M -f 4 --json $out/tmp.jsonl >/dev/null 2>&1
    fi
    b=$(/tmp/rtt)
    mv $out/tmp.jsonl $out/${w}_r${i}_${a}_${b}.jsonl 2>/dev/null
  done
done
