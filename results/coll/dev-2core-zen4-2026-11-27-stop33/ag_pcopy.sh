#!/bin/bash
# Stop 33: the all-gather of ordinary buffers between 2 ranks read with process-to-process copies
# from 32 KiB of src a rank (NEW) against the build before (OLD, through the scratch), launches
# taking turns, ROUNDS rounds, then Open MPI (mpi-coll): per launch the out-of-place times, us,
# by gathered size. Usage: ag_pcopy.sh OLD_BENCH NEW_BENCH   (ag_pcopy.txt: three rounds)
set -eu
old=$1 new=$2
rows() { awk 'BEGIN{m="O"} /symmetric buffers/{m="S"}
              /^ +[0-9]+ +[0-9]+ /{if(m=="O") printf "%dK:%.1f ", $1/1024, $3}'; }
for round in ${ROUNDS:-1 2 3}; do
    for v in old new; do
        b=$old; [ $v = new ] && b=$new
        echo "$v r$round $(launch/vsym-run -n 2 -- "$b" allgather -b 16K -e 1M -f 2 -n 200 2>&1 | rows)$(
            launch/vsym-run -n 2 -- "$b" allgather -b 2M -e 16M -f 2 -n 40 2>&1 | rows)"
    done
done
for round in 1 2; do
    echo "openmpi r$round $(launch/vsym-run -n 2 -- build/benches/peers/mpi-coll -b 16K -e 16M -f 2 \
        -n 100 --only allgather 2>&1 | awk '/^ +[0-9]/{printf "%dK:%.1f ", $1/1024, $2}')"
done
