#!/bin/bash
# Device runs of stop 34: NEW (build-dev/$NEW) and OLD (build-dev/vsym-bench-ag: b654a9c, the code
# before) taking turns, the collectives COLLS at SIZES, at 16 and 8 ranks bound to cores, two
# rounds; Open MPI's mpi-coll once per rank count. OUT/$NAME.tgz.
#   run 1: bash results/coll/device-16core-2026-11-27-stop34/run_s34.sh   (carry build-dev)
#          (NEW vsym-bench-s34: the reduce-scatter in place from a symmetric buffer read in place,
#          no streaming stores in place, the copies out of the peers' symmetric buffers streamed
#          by the scratch paths' rule, the broadcast's whole counting the root's src once)
#   run 2: NAME=s34b NEW=vsym-bench-s34b COLLS="alltoall broadcast allgather" \
#          SIZES="-b 16K -e 64M -f 4" bash results/coll/device-16core-2026-11-27-stop34/run_s34.sh
#          (NEW: the all-to-all in place by swaps; the zero-copy copies streamed on AMD only)
NAME=${NAME:-s34} NEW=${NEW:-vsym-bench-s34}
COLLS=${COLLS:-allreduce reduce-scatter allgather broadcast alltoall}
SIZES=${SIZES:--b 4M -e 64M -f 4}
D=$(pwd)/build-dev; R=$OUT/$NAME; mkdir -p $R
LIMIT=${LIMIT:-560}
export LD_LIBRARY_PATH=$D/lib
if ldd $D/$NEW | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
. "$(dirname "$0")/../device_step.sh"
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH"
[ $NAME = s34 ] && lscpu > $R/lscpu.txt 2>&1
for round in 1 2; do
  for np in 16 8; do
    for v in old new; do
      B=$D/$NEW; [ $v = old ] && B=$D/vsym-bench-ag
      for c in $COLLS; do
        step ${c}_np${np}_${v}_r$round 60 $M -np $np $B $c $SIZES -n 10 --check \
          --json $R/${c}_np${np}_${v}_r$round.jsonl
      done
    done
    [ $round = 1 ] && step mpi_np$np 120 $M -np $np $D/mpi-coll $SIZES -n 10 \
      --json $R/mpi_np${np}_r1.jsonl
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
