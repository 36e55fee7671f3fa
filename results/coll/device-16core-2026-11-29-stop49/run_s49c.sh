#!/bin/bash
# Third device run of stop 49: the broadcast's LL limit between 2 ranks, 64 B (vsym-bench.old,
# 89d52ce) against 256 B (vsym-bench.new), in turns (old first in odd rounds), ROUNDS rounds (8 in
# the run), ranks bound to cores, f32, 8 B-2 KiB by 2, -n 5000, --check; Open MPI's MPI_Bcast
# (mpi-coll, built on the 2-core host) at the same sizes in each round. OUT/$NAME.tgz; tables:
# ../dev-2core-zen5-2026-11-28-stop49/ab_bcll_table.py on the unpacked folder.
NAME=${NAME:-s49c}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.new
for i in $(seq 1 ${ROUNDS:-8}); do
  if [ $((i % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for v in $order; do
    mpirun_step ${v}_bc_$i 2 $D/vsym-bench.$v broadcast --dtype f32 -b 8 -e 2K -f 2 -n 5000 \
      --check --json $R/${v}_bc_$i.json
  done
  mpirun_step mpi_bc_$i 2 $D/mpi-coll -b 8 -e 2K -f 2 -n 5000 --only broadcast \
    --json $R/mpi_bc_$i.json
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
