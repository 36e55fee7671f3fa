#!/bin/bash
# Stop 35, 2-core AMD host: the collectives' copies into the scratch with VSYM_PUBLISH_STREAM
# off (ordinary stores, the code before) and auto (the first 4 KiB timed, the rest streamed
# when slow), the two taking turns launch by launch, ROUNDS rounds, at NPS ranks; every record
# carries core_rtt_ns (the line round trip between ranks 0 and 1 just before its size, where
# each rank has a core). Open MPI (mpi-coll) once a round. VAR and VALUES compare another
# setting the same way (VAR=VSYM_COLL_STREAM_MIN VALUES="0 auto": the fixed streaming of the
# broadcast's and all-gather's publishes on AMD against none). EXTRA: more options for both
# programs (stop 36: EXTRA=--touch). BENCHES="old=PATH new=PATH" with VALUES="old new" compares
# two binaries instead (no setting changed; BENCH still names the one whose mpi-coll runs).
# Usage: [ROUNDS=..] [NPS=..] [COLLS=..] [SIZES=..] [VAR=.. VALUES="A B"] [EXTRA=..] [BENCHES=..]
#        run_publish.sh BENCH OUTDIR
set -eu
bench=$1 out=$2
mkdir -p "$out"
sizes=${SIZES:--b 16K -e 4M -f 4}
for round in ${ROUNDS:-1 2 3}; do
    for np in ${NPS:-2 4}; do
        for c in ${COLLS:-allreduce allgather reduce-scatter broadcast alltoall}; do
            for v in ${VALUES:-off auto}; do
                f="$out/${c}_np${np}_${v}_r$round" b=$bench set="${VAR:-VSYM_PUBLISH_STREAM}=$v"
                for pair in ${BENCHES:-}; do
                    if [ "${pair%%=*}" = "$v" ]; then b=${pair#*=} set="AB_LABEL=$v"; fi
                done
                env $set launch/vsym-run -n $np -- "$b" $c $sizes ${EXTRA:-} --check \
                    --json "$f.jsonl" > "$f.txt" 2>&1
            done
        done
        launch/vsym-run -n $np -- build/benches/peers/mpi-coll $sizes ${EXTRA:-} \
            --json "$out/mpi_np${np}_r$round.jsonl" > "$out/mpi_np${np}_r$round.txt" 2>&1
    done
done
