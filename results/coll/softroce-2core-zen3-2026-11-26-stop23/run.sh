#!/bin/bash
# Collectives across 2 pretend nodes in the Soft-RoCE VM, next to Open MPI over the same Soft-RoCE
# devices (ratios only: qemu's software CPU runs the guest). Run on the host:
#   launch/vsym-softroce --nodes 2 --mem 4096 --timeout 3000 --rw OUT [--rw DIR]... -- \
#       results/coll/softroce-2core-zen3-2026-11-26-stop23/run.sh BUILD OUT [LABEL=BUILD2]...
# BUILD: this tree's build folder (records vsym_*); LABEL=BUILD2: builds of other commits timed
# in the same VM boot, in turns with it (records LABEL_*; a BUILD2 under /tmp needs its own
# --rw, the guest's /tmp being fresh). Every vsym row is --check'ed. tables.py OUT prints the
# tables of the README.
# Placement: VSYM_VIRTUAL_NODES=2 puts ranks 0..n/2-1 on pretend node 0 (rxe0 on veth v0) and the
# others on node 1 (rxe1 on v1): shared memory inside a node, verbs between. Open MPI cannot be
# told of pretend nodes (it would take shared memory between all ranks of the VM), so its ranks
# use UCX's RC and UD verbs transports only (UCX_TLS=rc_verbs,ud_verbs,self), each rank on its
# node's device: across the link it runs as on two real nodes; inside a node it loops back
# through its device where vsym uses shared memory.
set -u
B=$(cd "${1:?usage: run.sh BUILD OUT [LABEL=BUILD2]...}" && pwd); O=$(cd "${2:?}" && pwd)
shift 2
builds=("vsym=$B" "$@")
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../../.." && pwd); cd "$top"
export VSYM_HEAP_SIZE=64M VSYM_INTERNAL_SIZE=16M VSYM_VIRTUAL_NODES=2
T="timeout 900"
. "$here/../softroce-mpi.sh" # ucx NP PROGRAM ARGS...: half the ranks on rxe0, half on rxe1
(uname -r; nproc; git -C "$top" rev-parse --short HEAD; printf '%s\n' "${builds[@]}"; ibv_devices) \
  > "$O/host.txt" 2>&1
for round in 1 2; do
  for np in 2 4; do
    ucx $np "$B/benches/peers/mpi-coll" -b 8 -e 1M -f 8 -n 20 --only allreduce \
      --json "$O/mpi_allreduce_np${np}_r$round.jsonl" > "$O/mpi_allreduce_np${np}_r$round.txt" 2>&1
    echo "mpi allreduce np$np r$round: $?"
    for lb in "${builds[@]}"; do
      l=${lb%%=*}; d=${lb#*=}
      $T launch/vsym-run -n $np -- "$d/benches/vsym-bench" allreduce -b 8 -e 1M -f 8 -n 20 --check \
        --json "$O/${l}_allreduce_np${np}_r$round.jsonl" > "$O/${l}_allreduce_np${np}_r$round.txt" 2>&1
      echo "$l allreduce np$np r$round: $?"
    done
  done
  ucx 4 "$B/benches/peers/mpi-coll" -b 64 -e 64K -f 8 -n 20 --only fused \
    --json "$O/mpi_fused_np4_r$round.jsonl" > "$O/mpi_fused_np4_r$round.txt" 2>&1
  echo "mpi fused r$round: $?"
  for lb in "${builds[@]}"; do
    l=${lb%%=*}; d=${lb#*=}
    $T launch/vsym-run -n 4 -- "$d/benches/vsym-bench" fused --dtype f32 -b 64 -e 64K -f 8 -n 20 --check \
      --json "$O/${l}_fused_np4_r$round.jsonl" > "$O/${l}_fused_np4_r$round.txt" 2>&1
    echo "$l fused r$round: $?"
  done
done
echo done
