#!/bin/bash
# Launches taking turns (runs 1-5): vsym-bench allreduce on NP ranks over SIZES (its -b -e -f),
# the library as built (label A) and with the setting SET (label B), the input rewritten before
# each call and the result read after it, rounds ROUNDS (default 1-8); records in
# runs/PREFIX_A_ROUND.jsonl and runs/PREFIX_B_ROUND.jsonl.
#   turns.sh PREFIX NP "SIZES" A B SET
cd /work/main || exit 1
D=results/coll/dev-2core-zen5-2026-12-02-stop56
prefix=$1 np=$2 sizes=$3 a=$4 b=$5 set=$6
for round in ${ROUNDS:-1 2 3 4 5 6 7 8}; do
  # shellcheck disable=SC2086
  launch/vsym-run -n "$np" -- build/benches/vsym-bench allreduce $sizes --touch --consume \
    --json "$D/runs/${prefix}_${a}_${round}.jsonl" > /dev/null 2>&1
  # shellcheck disable=SC2086
  env "$set" launch/vsym-run -n "$np" -- build/benches/vsym-bench allreduce $sizes --touch \
    --consume --json "$D/runs/${prefix}_${b}_${round}.jsonl" > /dev/null 2>&1
done
echo done
