#!/bin/bash
# Device run of stop 51 (16-core Intel guest): the all-to-all and the all-gather between 2 ranks
# from ordinary buffers, 1-32 MiB, src unchanged and rewritten before each call (--touch):
# the scratch (default, vsym-bench at 959db93) against process-to-process copies
# (VSYM_COLL_PCOPY_MIN=1M) and Open MPI's (mpi-coll), taking turns, ranks bound to cores,
# ROUNDS rounds (default 6). build-dev holds vsym-bench.cur, mpi-coll, vsym-info and lib/.
#   bash results/coll/device-16core-2026-11-29-stop51/run_s51c.sh  (carry build-dev; $OUT)
NAME=${NAME:-s51c}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.cur
for round in $(seq ${ROUNDS:-6}); do
  case $((round % 3)) in 1) order="default pcopy mpi";; 2) order="pcopy mpi default";; *) order="mpi default pcopy";; esac
  for s in alltoall allgather; do
    for t in touch plain; do
      extra=(); [ $t = touch ] && extra=(--touch)
      for v in $order; do
        tag=$s.$t.r$round.$v
        case $v in
          default) mpirun_step $tag 2 $D/vsym-bench.cur $s -b 1M -e 32M -f 2 -n 20 "${extra[@]}" \
            --json $R/$tag.jsonl ;;
          pcopy) mpirun_step $tag 2 -x VSYM_COLL_PCOPY_MIN=1M $D/vsym-bench.cur $s -b 1M -e 32M \
            -f 2 -n 20 "${extra[@]}" --json $R/$tag.jsonl ;;
          mpi) mpirun_step $tag 2 $D/mpi-coll -b 1M -e 32M -f 2 -n 20 "${extra[@]}" --only $s \
            --json $R/$tag.jsonl ;;
        esac
      done
    done
  done
done
