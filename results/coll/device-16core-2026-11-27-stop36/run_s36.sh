#!/bin/bash
# Device run of stop 36: does src rewritten before each call (--touch: a store into every line,
# as new data would leave it) change what the process-to-process copies gain? build-dev/
# vsym-bench-s36 and mpi-coll-s36 (the code of the commit that adds --touch), the all-gather and
# the all-to-all with VSYM_COLL_PCOPY_MIN=0 (through the scratch) and auto (the process copies
# where the library took them: all-to-all from 1 MiB beyond 2 ranks, both from 32 KiB at 2),
# each with src left as the last call read it and with --touch; the all-reduce (no process
# copies) both ways; Open MPI's mpi-coll both ways; 16, 8 and 2 ranks bound to cores, ROUNDS
# rounds. OUT/$NAME.tgz.   bash results/coll/device-16core-2026-11-27-stop36/run_s36.sh  (carry build-dev)
NAME=${NAME:-s36} B=$(pwd)/build-dev/vsym-bench-s36 M=$(pwd)/build-dev/mpi-coll-s36
SIZES=${SIZES:--b 16K -e 4M -f 4}
. "$(dirname "$0")/../device_step.sh"
device_setup $B
run() { # name np env... -- args...
  local name=$1 np=$2; shift 2
  step $name 60 mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH "$@"
}
for round in ${ROUNDS:-1 2}; do
  for np in ${NPS:-16 8 2}; do
    for t in same touch; do
      x=; [ $t = touch ] && x=--touch
      for c in allgather alltoall; do
        for v in 0 auto; do
          run ${c}_np${np}_${v}_${t}_r$round $np -x VSYM_COLL_PCOPY_MIN=$v -np $np $B $c $SIZES \
            $x --check --json $R/${c}_np${np}_${v}_${t}_r$round.jsonl
        done
      done
      run allreduce_np${np}_auto_${t}_r$round $np -np $np $B allreduce $SIZES $x --check \
        --json $R/allreduce_np${np}_auto_${t}_r$round.jsonl
      run mpi_np${np}_${t}_r$round $np -np $np $M $SIZES --only allgather $x \
        --json $R/mpi_np${np}_${t}_r$round.jsonl
      run mpi_np${np}_${t}_a2a_r$round $np -np $np $M $SIZES --only alltoall $x \
        --json $R/mpi_np${np}_${t}_a2a_r$round.jsonl
      run mpi_np${np}_${t}_ar_r$round $np -np $np $M $SIZES --only allreduce $x \
        --json $R/mpi_np${np}_${t}_ar_r$round.jsonl
    done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
