#!/bin/bash
# Device run of stop 51 (16-core Intel guest): the broadcast between 2 ranks, 8-512 B, vsym-bench
# at fada1eb (old: the reader asks for the next call's lines up to 2) and b246bbf (new: up to 5
# on other CPUs than AMD's), taking turns with Open MPI's MPI_Bcast (mpi-coll), ranks bound to
# cores, ROUNDS rounds (default 12; the order of each round from ORDER1 and ORDER2, odd and even
# rounds: the second run had new2, the limit kept in the handle, in them). build-dev holds
# vsym-bench.{old,new,new2}, mpi-coll, vsym-info and lib/ (libcpufreq, libjansson).
#   bash results/coll/device-16core-2026-11-29-stop51/run_s51.sh  (carry build-dev; $OUT)
NAME=${NAME:-s51}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.new
$D/vsym-info > $R/vsym-info.txt 2>&1
for round in $(seq ${ROUNDS:-12}); do
  if [ $((round % 2)) = 1 ]; then order=${ORDER1:-"old new mpi"}; else order=${ORDER2:-"mpi new old"}; fi
  for v in $order; do
    tag=broadcast.r$round.$v
    if [ $v = mpi ]; then
      mpirun_step $tag 2 $D/mpi-coll -b 8 -e 512 -f 2 -n 20000 --only broadcast --json $R/$tag.jsonl
    else
      mpirun_step $tag 2 $D/vsym-bench.$v broadcast -b 8 -e 512 -f 2 -n 20000 --check \
        --json $R/$tag.jsonl
    fi
  done
done
