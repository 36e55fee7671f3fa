#!/bin/bash
# Second VM boot of stop 24 (after run.sh): where AUTO's all-reduce across 2 pretend nodes x 2
# ranks should leave one-shot for the hierarchical algorithm, each forced, 4-64 KiB, now that a
# forced HIER runs its levels by the rule (run.sh's forced HIER ran two-shot across nodes);
# then 128 KiB under AUTO with a few settings, to see why symmetric buffers took longer than
# ordinary ones there in run.sh. Run on the host:
#   launch/vsym-softroce --nodes 2 --mem 4096 --timeout 3000 --rw OUT -- \
#       results/coll/softroce-2core-zen3-2026-11-26-stop24/limit.sh BUILD OUT
set -u
B=$(cd "${1:?usage: limit.sh BUILD OUT}" && pwd); O=$(cd "${2:?}" && pwd)
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../../.." && pwd); cd "$top"
export VSYM_HEAP_SIZE=64M VSYM_INTERNAL_SIZE=16M VSYM_VIRTUAL_NODES=2
T="timeout 900"
(uname -r; nproc; git -C "$top" rev-parse --short HEAD; echo "$B"; ibv_devices) > "$O/host2.txt" 2>&1
vb() { # vb NAME NP [ENV=VAL...] -- ARGS...
  local name=$1 np=$2; shift 2
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  $T env "${envs[@]}" launch/vsym-run -n "$np" -- "$B/benches/vsym-bench" allreduce "$@" --check \
    --json "$O/$name.jsonl" > "$O/$name.txt" 2>&1
  echo "$name: $?"
}
for round in 1 2; do
  for a in oneshot hier; do
    vb "lim_${a}_r$round" 4 -- --algo $a -b 4K -e 64K -f 2 -n 10
  done
  vb "diag_auto_r$round" 4 -- -s 128K -n 10
  vb "diag_nt_r$round" 4 VSYM_NT_THRESHOLD=1G -- -s 128K -n 10
  vb "diag_i32_r$round" 4 -- --dtype i32 -s 128K -n 10
  vb "diag_hier_r$round" 4 -- --algo hier -s 128K -n 10
  vb "diag_np2_r$round" 2 -- -s 32K -n 10
done
echo done
