#!/bin/bash
# Stop 38 (from the repository root): OLD=PATH ab_ll.sh OUT SECONDS: rounds of launches taking
# turns, for SECONDS: vsym-bench of the build before (OLD: the LL protocol's 16-byte units), of
# build/ (its 64-byte lines) and of build/ with VSYM_COLL_LL_MAX=$LLMAX (default 1024); VARIANTS:
# a subset of "old new ll". SUITES (default: all-reduce and broadcast) at NPS ranks (2 4), SIZES
# (16 B-4 KiB by 2); Open MPI's all-reduce (mpi-coll, the same sizes) once a round. Every record
# carries core_rtt_ns (the cores' state before its size; mpi-coll's since this stop too):
# ab_ll_table.py OUT.
set -u
out=$1; end=$(( $(date +%s) + $2 )); i=0
new=build/benches/vsym-bench sizes=${SIZES:-"-b 16 -e 4K -f 2"}
mkdir -p "$out"
while [ $(date +%s) -lt $end ]; do
  i=$((i+1))
  for np in ${NPS:-2 4}; do
    for s in ${SUITES:-allreduce broadcast}; do
      for v in ${VARIANTS:-old new ll}; do
        b=$new set=AB_LABEL=$v
        [ $v = old ] && b=$OLD
        [ $v = ll ] && set=VSYM_COLL_LL_MAX=${LLMAX:-1024}
        env $set timeout 300 launch/vsym-run -n $np -- $b $s $sizes --check \
          --json $out/${s}_np${np}_${v}_r$i.jsonl > /dev/null 2>&1 || echo "fail $s $np $v $i"
      done
    done
    timeout 300 launch/vsym-run -n $np -- build/benches/peers/mpi-coll $sizes --only allreduce \
      --json $out/mpi_np${np}_r$i.jsonl > /dev/null 2>&1 || echo "fail mpi $np $i"
  done
done
