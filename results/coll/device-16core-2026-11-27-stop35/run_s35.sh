#!/bin/bash
# Device run of stop 35: build-dev/vsym-bench-s35 (the code of the commit after 1a2f715) with VSYM_PUBLISH_STREAM off
# (the stores into the scratch as before) and auto (the first 4 KiB of each publish timed, the
# rest streamed when that took 1 us or more) taking turns, the five collectives at SIZES, at 16,
# 8 and 2 ranks bound to cores, ROUNDS rounds; Open MPI's mpi-coll once per rank count; every
# record carries core_rtt_ns (ranks 0 and 1). OUT/$NAME.tgz.
#   bash results/coll/device-16core-2026-11-27-stop35/run_s35.sh   (carry build-dev)
# VALUES (default "off auto") the settings compared; NOMPI=1 leaves Open MPI out (stop 36's
# second run: NAME=s36b BENCH=vsym-bench-s36b VALUES="off on" NPS="2 8 16" NOMPI=1
# SIZES="-b 16K -e 512K -f 2").
NAME=${NAME:-s35} B=$(pwd)/build-dev/${BENCH:-vsym-bench-s35}
COLLS=${COLLS:-allreduce reduce-scatter allgather broadcast alltoall}
SIZES=${SIZES:--b 16K -e 4M -f 4}
. "$(dirname "$0")/../device_step.sh"
device_setup $B
for round in ${ROUNDS:-1 2}; do
  for np in ${NPS:-16 8 2}; do
    for c in $COLLS; do
      for v in ${VALUES:-off auto}; do
        step ${c}_np${np}_${v}_r$round 60 mpirun --allow-run-as-root --bind-to core \
          -x LD_LIBRARY_PATH -x VSYM_PUBLISH_STREAM=$v -np $np $B $c $SIZES --check \
          --json $R/${c}_np${np}_${v}_r$round.jsonl
      done
    done
    [ $round = 1 ] && [ -z "${NOMPI:-}" ] && step mpi_np$np 120 mpirun --allow-run-as-root --bind-to core \
      -x LD_LIBRARY_PATH -np $np $D/mpi-coll $SIZES --json $R/mpi_np${np}_r1.jsonl
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
