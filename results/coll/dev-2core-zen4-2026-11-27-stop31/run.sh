#!/bin/bash
# Stop 31, 2-core AMD host: the reduction kernels run from the last element down where a
# destination lies just past a source modulo 4 KiB (4K aliasing). Old and new builds of
# vsym-bench take turns, ROUNDS rounds (default 1-5) at NPS ranks (default 2 4); memcpy-bench each
# round for the bound.
# Usage: [ROUNDS="1 2 3"] [NPS="2"] run.sh OLD_BENCH NEW_BENCH MEMCPY_BENCH OUTDIR
set -eu
old=$1 new=$2 mc=$3 out=$4
mkdir -p "$out"
for round in ${ROUNDS:-1 2 3 4 5}; do
    for np in ${NPS:-2 4}; do
        for v in old new; do
            b=$old; [ $v = new ] && b=$new
            launch/vsym-run -n $np -- "$b" allreduce -b 64K -e 16M -f 4 -n 100 --check \
                --json "$out/ar_np${np}_${v}_r$round.jsonl" > "$out/ar_np${np}_${v}_r$round.txt" 2>&1
            launch/vsym-run -n $np -- "$b" reduce-scatter -b 64K -e 16M -f 4 -n 100 --check \
                --json "$out/rs_np${np}_${v}_r$round.jsonl" > "$out/rs_np${np}_${v}_r$round.txt" 2>&1
        done
    done
    "$mc" -b 64K -e 16M -f 4 --json "$out/memcpy_r$round.jsonl" > /dev/null 2>&1
done
