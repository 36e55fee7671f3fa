#!/bin/bash
# vsym's collectives next to Open MPI's MPI (mpi-coll) and OSHMEM (oshmem-coll) ones on this
# machine: all-reduce, all-gather, broadcast, all-to-all (OpenSHMEM 1.4 has no reduce-scatter),
# 2 and 4 ranks, 8 B-16 MiB (x8), f32, ROUNDS rounds with the three programs in turns; vsym and
# oshmem-coll check their results (#wrong).   [ROUNDS=3] run.sh BUILD_DIR OUT_DIR
#   tables.py OUT_DIR prints the medians and ratios.
set -u
B=${1:?usage: run.sh BUILD_DIR OUT_DIR}; R=${2:?usage: run.sh BUILD_DIR OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../../../.." && pwd)
mkdir -p "$R"
(nproc; lscpu | grep -E "Model name|L3"; mpirun --version | head -1; git -C "$top" rev-parse --short HEAD) > "$R/host.txt" 2>&1
S=${SIZES:--b 8 -e 16M -f 8}
for r in $(seq 1 "${ROUNDS:-3}"); do
  for np in 2 4; do
    for k in allreduce allgather broadcast alltoall; do
      "$top/launch/vsym-run" -n $np -- "$B/benches/vsym-bench" $k $S --check \
          > "$R/vsym_${k}_np${np}_r$r.txt" 2>&1
    done
    for k in allreduce allgather broadcast alltoall; do
      "$top/launch/vsym-run" -n $np -- "$B/benches/peers/mpi-coll" $S --only $k \
          > "$R/mpi_${k}_np${np}_r$r.txt" 2>&1
    done
    oshrun --allow-run-as-root --oversubscribe --mca osc ^rdma -np $np \
        "$B/benches/peers/oshmem-coll" $S > "$R/oshmem_np${np}_r$r.txt" 2>&1
  done
done
