#!/usr/bin/env bash
# Run 6: reduce-scatter + all-reduce of f32 at 2-8 KiB on 4 ranks (TP 2 x DP 2), every mode timed
# next to the baseline in each launch, eight launches plain (pN) and eight with --touch --consume
# (tN), taking turns. Table: stop 68's ratio.py, e.g.
#   python3 ../dev-2core-intel-2026-12-03-stop68/ratio.py "OUT/p*.jsonl" baseline oneshot
#   bash rs_small.sh BUILD OUT
set -eu
build="$1" out="$2"
root="$(cd "$(dirname "$0")/../../.." && pwd)"
mkdir -p "$out"
for i in 1 2 3 4 5 6 7 8; do
  for v in p t; do
    extra=()
    [ $v = t ] && extra=(--touch --consume)
    "$root/launch/vsym-run" -n 4 -- "$build/benches/vsym-bench" fused --op reducescatter_allreduce \
      --dtype f32 -b 2K -e 8K "${extra[@]}" --quiet --json "$out/$v$i.jsonl" >/dev/null
  done
done
