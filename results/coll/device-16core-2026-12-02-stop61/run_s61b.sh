#!/bin/bash
# Stop 61 on the 16-core guest, run 2: where copies stream. sysfs describes a 300 MiB L3 shared
# by the 16 CPUs, so VSYM_NT_THRESHOLD auto is 150 MiB, while run 1's memcpy-bench left the cache
# between 32 and 64 MiB (memcpy 13.1 -> 7.5 GB/s; 64-byte streaming stores 16.0 -> 15.5). The
# build with 64-byte streaming stores (build-dev/vsym-bench), three rounds taking turns between
# VSYM_NT_THRESHOLD auto and 48M (this host's cap: streams from 48 MiB of a copy's whole), ranks
# bound to cores: a put of 16-64 MiB (2 ranks), the copy service's ring (2 ranks), and every
# collective at 16-64 MiB on 2 and 8 ranks, the input rewritten and the output read.
#   bash results/coll/device-16core-2026-12-02-stop61/run_s61b.sh   (carry build-dev)
NAME=${NAME:-s61b}
LIMIT=${LIMIT:-560}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench
for round in 1 2 3; do
  for t in auto 48M; do
    export VSYM_NT_THRESHOLD=$t
    mpirun_step put.$t.r$round 2 -x VSYM_NT_THRESHOLD $D/vsym-bench put -b 16M -e 64M -f 2 -n 10
    mpirun_step copy.$t.r$round 2 -x VSYM_NT_THRESHOLD $D/vsym-bench copy --pattern ring \
      -b 16M -e 64M -f 2 -n 10
    for np in 2 8; do
      for op in allreduce allgather reduce-scatter broadcast alltoall; do
        mpirun_step $op.np$np.$t.r$round $np -x VSYM_NT_THRESHOLD $D/vsym-bench $op \
          -b 16M -e 64M -f 2 -n 5 --touch --consume
      done
    done
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
