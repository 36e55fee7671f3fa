#!/bin/bash
# The push exchange from symmetric buffers, non-blocking (stop 24), in the Soft-RoCE VM across 2
# pretend nodes, ratios only. Run on the host:
#   launch/vsym-softroce --nodes 2 --mem 4096 --timeout 3000 --rw OUT -- \
#       results/coll/softroce-2core-zen3-2026-11-26-stop24/run.sh BUILD OUT [LABEL=BUILD2]...
# BUILD: this tree's build folder (records vsym_*); LABEL=BUILD2: a build of another commit timed
# in the same VM boot, in turns (records LABEL_*; outside /tmp, or give it its own --rw).
# Every row is --check'ed. Placement as in ../softroce-2core-zen3-2026-11-26-stop23/run.sh:
# VSYM_VIRTUAL_NODES=2, ranks 0..n/2-1 on pretend node 0 (rxe0), the rest on node 1 (rxe1).
#  1. all-reduce, 2 ranks (one per node) and 2 x 2, 32 KiB-1 MiB: ordinary and symmetric buffers;
#  2. the forced one-shot (push exchange once per node) against the hierarchical all-reduce,
#     2 x 2 ranks, 4-256 KiB: where AUTO's rule should switch (coll.c, allreduce_rule).
# tables.py OUT prints the tables of the README.
set -u
B=$(cd "${1:?usage: run.sh BUILD OUT [LABEL=BUILD2]...}" && pwd); O=$(cd "${2:?}" && pwd)
shift 2
builds=("vsym=$B" "$@")
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../../.." && pwd); cd "$top"
export VSYM_HEAP_SIZE=64M VSYM_INTERNAL_SIZE=16M VSYM_VIRTUAL_NODES=2
T="timeout 900"
(uname -r; nproc; git -C "$top" rev-parse --short HEAD; printf '%s\n' "${builds[@]}"; ibv_devices) \
  > "$O/host.txt" 2>&1
for round in 1 2; do
  for np in 2 4; do
    for lb in "${builds[@]}"; do
      l=${lb%%=*}; d=${lb#*=}
      $T launch/vsym-run -n $np -- "$d/benches/vsym-bench" allreduce -b 32K -e 1M -f 4 -n 10 --check \
        --json "$O/${l}_allreduce_np${np}_r$round.jsonl" > "$O/${l}_allreduce_np${np}_r$round.txt" 2>&1
      echo "$l allreduce np$np r$round: $?"
    done
  done
  for a in oneshot hier; do
    $T launch/vsym-run -n 4 -- "$B/benches/vsym-bench" allreduce --algo $a -b 4K -e 256K -f 4 -n 10 \
      --check --json "$O/vsym_${a}_np4_r$round.jsonl" > "$O/vsym_${a}_np4_r$round.txt" 2>&1
    echo "$a np4 r$round: $?"
  done
done
echo done
