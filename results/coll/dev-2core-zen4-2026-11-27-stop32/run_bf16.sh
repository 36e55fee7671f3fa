#!/bin/bash
# Stop 32, 2-core AMD host: the bf16 kernels two elements per 32-bit word (NEW) against the build
# before (OLD, 6a235c2), all-reduce and reduce-scatter of bf16 and f32 (the same bytes),
# 64 KiB-16 MiB, ROUNDS rounds (default 1-3) at NPS ranks (default 2 4), taking turns.
# Usage: [ROUNDS=..] [NPS=..] [DTYPES=..] [SIZES=..] [COLLS=..] run_bf16.sh OLD_BENCH NEW_BENCH OUTDIR
# (also the streaming push A/B: DTYPES=f32 SIZES="-b 4M -e 64M -f 4" COLLS=allreduce)
set -eu
old=$1 new=$2 out=$3
mkdir -p "$out"
for round in ${ROUNDS:-1 2 3}; do
    for np in ${NPS:-2 4}; do
        for dt in ${DTYPES:-bf16 f32}; do
            for v in old new; do
                b=$old; [ $v = new ] && b=$new
                for c in ${COLLS:-allreduce reduce-scatter}; do
                    launch/vsym-run -n $np -- "$b" $c --dtype $dt ${SIZES:--b 64K -e 16M -f 4} -n 60 --check \
                        --json "$out/${c}_${dt}_np${np}_${v}_r$round.jsonl" \
                        > "$out/${c}_${dt}_np${np}_${v}_r$round.txt" 2>&1
                done
            done
        done
    done
done
