#!/bin/bash
# Stop 27 in the Soft-RoCE VM (ratios only: qemu's software CPU runs the guest), across 2 pretend
# nodes (VSYM_VIRTUAL_NODES=2: shared memory inside a pretend node, verbs between), next to Open
# MPI over the same Soft-RoCE devices (../softroce-mpi.sh). Run on the host:
#   launch/vsym-softroce --nodes 2 --mem 4096 --timeout 3000 --rw OUT -- \
#       results/coll/softroce-2core-zen3-2026-11-26-stop27/run.sh BUILD OUT [ROUNDS] [WHAT]
# WHAT "exchange" (default): the push exchange's flagged words (VSYM_COLL_NET_LL_MAX) in the
#   all-reduce (2 and 4 ranks, 8 B-64 KiB), all-gather and all-to-all (2 ranks, 8 B-4 KiB); records
#   mpi_* (Open MPI), vsym_* (defaults: words up to 1 KiB per peer), counter_*
#   (VSYM_COLL_NET_LL_MAX=0: every block a put + counter add, the code before), words4k_* (words
#   up to 4 KiB, all-reduce at 2 ranks, 1-4 KiB);
# WHAT "broadcast": the pushed broadcast (path oneshot-push, up to VSYM_COLL_NET_BCAST_MAX, 16 KiB),
#   2 and 4 ranks, 8 B-64 KiB; records mpi_*, vsym_*, scratch_* (VSYM_COLL_NET_BCAST_MAX=0: the
#   one-shot broadcast through the scratch, a signal barrier then an RDMA read of the root's data).
# Every vsym row is --check'ed; averages per call of the slowest rank. tables.py OUT prints the
# tables of the README.
set -u
B=$(cd "${1:?usage: run.sh BUILD OUT [ROUNDS] [exchange|broadcast]}" && pwd); O=$(cd "${2:?}" && pwd)
R=${3:-3}; what=${4:-exchange}
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../../.." && pwd); cd "$top"
export VSYM_HEAP_SIZE=64M VSYM_INTERNAL_SIZE=16M VSYM_VIRTUAL_NODES=2
T="timeout 600"
. "$here/../softroce-mpi.sh"
mpi() { # mpi KIND NP SIZES...
  local k=$1 np=$2; shift 2
  ucx $np "$B/benches/peers/mpi-coll" "$@" -n 20 --only $k \
    --json "$O/mpi_${k}_np${np}_r$round.jsonl" > "$O/mpi_${k}_np${np}_r$round.txt" 2>&1
  echo "mpi $k np$np r$round: $?"
}
vs() { # vs LABEL SETTING=VALUE KIND NP SIZES...
  local l=$1 set=$2 k=$3 np=$4; shift 4
  env "$set" $T launch/vsym-run -n $np -- "$B/benches/vsym-bench" $k "$@" -n 20 --check \
    --json "$O/${l}_${k}_np${np}_r$round.jsonl" > "$O/${l}_${k}_np${np}_r$round.txt" 2>&1
  echo "$l $k np$np r$round: $?"
}
(uname -r; nproc; git -C "$top" rev-parse --short HEAD; ibv_devices) > "$O/host_$what.txt" 2>&1
for round in $(seq 1 "$R"); do
  if [ "$what" = broadcast ]; then
    for np in 2 4; do
      mpi broadcast $np -b 8 -e 64K -f 2
      vs vsym VSYM_COLL_NET_BCAST_MAX=16K broadcast $np -b 8 -e 64K -f 2
      vs scratch VSYM_COLL_NET_BCAST_MAX=0 broadcast $np -b 8 -e 64K -f 2
    done
    continue
  fi
  for np in 2 4; do
    mpi allreduce $np -b 8 -e 64K -f 2
    vs vsym VSYM_COLL_NET_LL_MAX=1K allreduce $np -b 8 -e 64K -f 2
    vs counter VSYM_COLL_NET_LL_MAX=0 allreduce $np -b 8 -e 64K -f 2
  done
  vs words4k VSYM_COLL_NET_LL_MAX=4K allreduce 2 -b 1K -e 4K -f 2
  for k in allgather alltoall; do
    mpi $k 2 -b 8 -e 4K -f 8
    vs vsym VSYM_COLL_NET_LL_MAX=1K $k 2 -b 8 -e 4K -f 8
    vs counter VSYM_COLL_NET_LL_MAX=0 $k 2 -b 8 -e 4K -f 8
  done
done
echo done
