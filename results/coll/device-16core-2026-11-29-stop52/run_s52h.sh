#!/bin/bash
# Eighth device run of stop 52 (16-core Intel guest): the all-reduce at 8 ranks bound to cores,
# 1-32 MiB by 2, f32, --check, AUTO (the ring from 1 MiB) against the ring and two-shot forced
# (VSYM_COLL_ALGO) and Open MPI's, taking turns, four rounds: whether the ring's bimodal launches
# at 8 MiB (run_s52.sh: 2.5-2.7 ms in one round, 4.1-4.3 in two) are the ring's.
# build-dev holds vsym-bench.head (69e45b3), mpi-coll.new and lib/.
#   FROM=1 TO=4 bash results/coll/device-16core-2026-11-29-stop52/run_s52h.sh   (carry build-dev)
NAME=${NAME:-s52h_${FROM:-1}}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.head
for round in $(seq ${FROM:-1} ${TO:-4}); do
  for v in auto ring twoshot mpi; do
    tag=ar.np8.r$round.$v
    case $v in
      auto) mpirun_step $tag 8 $D/vsym-bench.head allreduce -b 1M -e 32M -f 2 --check \
        --json $R/$tag.jsonl ;;
      mpi) mpirun_step $tag 8 $D/mpi-coll.new -b 1M -e 32M -f 2 --only allreduce \
        --json $R/$tag.jsonl ;;
      *) mpirun_step $tag 8 -x VSYM_COLL_ALGO=$v $D/vsym-bench.head allreduce -b 1M -e 32M -f 2 \
        --check --json $R/$tag.jsonl ;;
    esac
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
