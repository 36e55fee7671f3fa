#!/usr/bin/env bash
# A setting at auto against one value, between 2 ranks, launches taking turns (the order swapped
# every other round). Records OUT/VALUE-ROUND-SUITE.jsonl (auto-ROUND-SUITE.jsonl for auto);
# ab_table.py makes the table. SUITE_tc: the suite with --touch --consume (src rewritten before
# each call, dst read after it).
#   bash ab.sh BUILD OUT ROUNDS SETTING VALUE "SUITES" "BENCH ARGS"
# Runs of this stop (run 2 had auto first in every round; the others swap):
#   run 2: bash ab.sh build OUT 3 VSYM_NT_THRESHOLD 32M \
#            "allreduce allgather reduce-scatter broadcast alltoall put get" "-b 8M -e 64M -f 2 -n 10"
#   run 3: the same, 4 rounds
#   run 4: bash ab.sh build OUT 6 VSYM_NT_THRESHOLD 32M "allreduce allreduce_tc" "-b 8M -e 32M -f 2 -n 10"
#   run 5: bash ab.sh build OUT 6 VSYM_COLL_PCOPY_MIN 0 "allreduce allreduce_tc" "-b 4M -e 32M -f 2 -n 10"
set -eu
build="$1" out="$2" rounds="$3" setting="$4" value="$5" suites="$6" args="$7"
root="$(cd "$(dirname "$0")/../../.." && pwd)"
mkdir -p "$out"
for round in $(seq 1 "$rounds"); do
  order="auto $value"
  [ $((round % 2)) = 0 ] && order="$value auto"
  for suite in $suites; do
    for v in $order; do
      # shellcheck disable=SC2206
      a=($args)
      name=${suite%_tc}
      [ "$name" != "$suite" ] && a+=(--touch --consume)
      case $name in put|get) a+=(--mode bw) ;; esac
      env "$setting=$v" "$root/launch/vsym-run" -n 2 -- "$build/benches/vsym-bench" "$name" \
        "${a[@]}" --quiet --json "$out/$v-$round-$suite.jsonl" >/dev/null
    done
  done
done
