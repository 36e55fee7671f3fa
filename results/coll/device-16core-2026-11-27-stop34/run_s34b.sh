#!/bin/bash
# Second device run of stop 34: build-dev/vsym-bench-s34b (NEW: the all-to-all in place in a
# symmetric buffer by swaps, d8364ee; the copies out of the peers' symmetric buffers streamed on
# AMD CPUs only, e4f5dcc, so here as before) and vsym-bench-ag (OLD: b654a9c) taking turns,
# all-to-all, broadcast and all-gather, 16 KiB-64 MiB, at 16 and 8 ranks bound to cores, two
# rounds; Open MPI's mpi-coll once per rank count. OUT/s34b.tgz.
#   bash results/coll/device-16core-2026-11-27-stop34/run_s34b.sh   (carry build-dev)
D=$(pwd)/build-dev; R=$OUT/s34b; mkdir -p $R
LIMIT=${LIMIT:-560}
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench-s34b | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
start=$(date +%s)
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH"
step() { # name timeout command...
  local name=$1 to=$2; shift 2
  local t=$(left); [ $t -lt 20 ] && { echo "skip $name: $t s left" >> $R/progress.txt; return; }
  [ $to -gt $t ] && to=$t
  timeout $to "$@" > $R/$name.txt 2>&1
  echo "exit $? $(date +%T) $name $(( $(date +%s) - start )) s" >> $R/progress.txt
}
for round in 1 2; do
  for np in 16 8; do
    for v in old new; do
      B=$D/vsym-bench-s34b; [ $v = old ] && B=$D/vsym-bench-ag
      for c in alltoall broadcast allgather; do
        step ${c}_np${np}_${v}_r$round 60 $M -np $np $B $c -b 16K -e 64M -f 4 -n 10 --check \
          --json $R/${c}_np${np}_${v}_r$round.jsonl
      done
    done
    [ $round = 1 ] && step mpi_np$np 120 $M -np $np $D/mpi-coll -b 16K -e 64M -f 4 -n 10 \
      --json $R/mpi_np${np}_r1.jsonl
  done
done
(cd $OUT && tar czf s34b.tgz s34b && rm -rf s34b)
