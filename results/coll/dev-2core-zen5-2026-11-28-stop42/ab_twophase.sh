#!/bin/bash
# Stop 42: the two-phase fused modes of ordinary buffers publishing only what peers read, A/B on
# this host. ROUNDS rounds; in each, every build in BINS (names of BIN_DIR/NAME-bench, vsym-bench
# binaries; the first is the reference) runs vsym-bench fused at 4 ranks for each 2 x 2 op, the
# order of the builds turning every round. DT dtype (f32), LO HI F sizes (32K 2M 4).
#   BIN_DIR=/tmp/abbin BINS="old new" OUT=/tmp/ab DT=f16 LO=16K HI=1M F=2 ab_twophase.sh 6
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
mkdir -p "$OUT"
read -r -a builds <<< "$BINS"
nb=${#builds[@]}
for i in $(seq 1 "${1:-6}"); do
  for k in $(seq 0 $((nb - 1))); do
    b=${builds[$(((k + i) % nb))]}
    for op in allreduce_allgather reducescatter_allreduce; do
      "$root/launch/vsym-run" -n 4 -- "$BIN_DIR/$b-bench" fused --op "$op" --dtype "${DT:-f32}" \
        -b "${LO:-32K}" -e "${HI:-2M}" -f "${F:-4}" -n 200 > "$OUT/$b.$i.$op.txt" 2>&1
    done
  done
done
