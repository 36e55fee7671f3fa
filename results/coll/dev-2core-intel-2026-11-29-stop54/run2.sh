#!/bin/bash
# all-reduce, 2 and 4 ranks: vsym-bench and mpi-coll, input rewritten, output read or not, taking turns
cd /work/main
for round in 1 2; do
  for np in 2 4; do
    for way in touch consume; do
      extra="--touch"; [ $way = consume ] && extra="--touch --consume"
      launch/vsym-run -n $np -- build/benches/vsym-bench allreduce -b 4K -e 32M -f 4 $extra --json runs/r2_v_${np}_${way}_${round}.jsonl > runs/r2_v_${np}_${way}_${round}.txt 2>&1
      launch/vsym-run -n $np -- build/benches/peers/mpi-coll --only allreduce -b 4K -e 32M -f 4 $extra --json runs/r2_m_${np}_${way}_${round}.jsonl > runs/r2_m_${np}_${way}_${round}.txt 2>&1
    done
  done
done
echo done
