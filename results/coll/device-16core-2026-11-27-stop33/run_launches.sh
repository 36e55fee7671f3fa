#!/bin/bash
# Second device run of stop 33: the launch-level A/B of the rule as committed (the stores into an
# out-of-place dst stream once the ranks' src and dst together reach twice the threshold, 300
# MiB here): build-dev/vsym-bench (NEW) and vsym-bench-old (00a83e9) taking turns, all-reduce,
# all-gather, broadcast and reduce-scatter, 4-64 MiB, at 16 and 8 ranks bound to cores, two
# rounds; Open MPI's mpi-coll once per rank count. OUT/launches.tgz.
#   bash results/coll/device-16core-2026-11-27-stop33/run_launches.sh   (carry build-dev)
D=$(pwd)/build-dev; R=$OUT/launches; mkdir -p $R
LIMIT=${LIMIT:-560}
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
. "$(dirname "$0")/../device_step.sh"
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH"
for round in 1 2; do
  for np in 16 8; do
    for v in old new; do
      B=$D/vsym-bench; [ $v = old ] && B=$D/vsym-bench-old
      for c in allreduce allgather broadcast reduce-scatter; do
        step ${c}_np${np}_${v}_r$round 60 $M -np $np $B $c -b 4M -e 64M -f 4 -n 10 --check \
          --json $R/${c}_np${np}_${v}_r$round.jsonl
      done
    done
    [ $round = 1 ] && step mpi_np$np 90 $M -np $np $D/mpi-coll -b 4M -e 64M -f 4 -n 10 \
      --json $R/mpi_np${np}_r1.jsonl
  done
done
(cd $OUT && tar czf launches.tgz launches && rm -rf launches)
