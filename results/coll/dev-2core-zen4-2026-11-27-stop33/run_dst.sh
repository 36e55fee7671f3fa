#!/bin/bash
# Stop 33, 2-core AMD host: the collectives through the scratch storing into an out-of-place dst
# with non-temporal stores beyond the streaming threshold (NEW) against the build before (OLD),
# all-reduce, all-gather, reduce-scatter and broadcast of f32, 2-64 MiB, at NPS ranks (default
# 2 4), ROUNDS rounds (default 1 2 3), the builds taking turns; c2c_probe before every launch
# (the guest's two CPUs near or far: its first figure), Open MPI (mpi-coll) and memcpy-bench
# once a round.
# Usage: [ROUNDS=..] [NPS=..] [COLLS=..] [SIZES=..] run_dst.sh OLD_BENCH NEW_BENCH OUTDIR
set -eu
old=$1 new=$2 out=$3
here=$(dirname "$0")
mkdir -p "$out"
gcc -O2 -mavx512f -pthread -o "$out/c2c_probe" "$here/c2c_probe.c"
sizes=${SIZES:--b 2M -e 64M -f 2}
for round in ${ROUNDS:-1 2 3}; do
    for np in ${NPS:-2 4}; do
        for v in old new; do
            b=$old; [ $v = new ] && b=$new
            for c in ${COLLS:-allreduce allgather reduce-scatter broadcast}; do
                f="$out/${c}_np${np}_${v}_r$round"
                "$out/c2c_probe" > "$f.c2c"
                launch/vsym-run -n $np -- "$b" $c $sizes -n 20 --check --json "$f.jsonl" > "$f.txt" 2>&1
            done
        done
        "$out/c2c_probe" > "$out/mpi_np${np}_r$round.c2c"
        launch/vsym-run -n $np -- build/benches/peers/mpi-coll $sizes -n 20 \
            --json "$out/mpi_np${np}_r$round.jsonl" > "$out/mpi_np${np}_r$round.txt" 2>&1
    done
    build/benches/peers/memcpy-bench $sizes --json "$out/memcpy_r$round.jsonl" > /dev/null
    build/benches/peers/memcpy-bench $sizes --loaded --json "$out/memcpy_loaded_r$round.jsonl" > /dev/null
done
rm -f "$out/c2c_probe"
