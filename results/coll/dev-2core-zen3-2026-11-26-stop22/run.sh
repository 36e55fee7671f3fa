#!/bin/bash
# Fused collectives at 4 ranks on the 2-core host (stop 22): three launches of the fused suite
# (every TP x DP split, ordinary and symmetric buffers, --check) with VSYM_AUTOTUNE_FILE (the
# first tunes and saves the table, the others load it), and Open MPI's TP-then-DP sequence
# (mpi-coll --only fused) once.   results/coll/dev-2core-zen3-2026-11-26-stop22/run.sh BUILD [OUT]
set -eu
B=${1:?usage: run.sh BUILD_DIR [OUT_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
R=$(mkdir -p "${2:-$here}" && cd "${2:-$here}" && pwd)
(nproc; lscpu | sed -n '1,15p'; uname -r; mpirun --version | head -1; git -C "$top" describe --always --dirty) > "$R/host.txt" 2>&1
export VSYM_AUTOTUNE_FILE=$R/autotune_np4.txt
rm -f "$VSYM_AUTOTUNE_FILE"
for k in tune load1 load2; do
  "$top/launch/vsym-run" -n 4 -- "$B/benches/vsym-bench" fused --dtype f32 -b 64 -e 1M -f 4 --check \
      --json "$R/fused_$k.jsonl" > "$R/fused_$k.txt" 2>&1
done
unset VSYM_AUTOTUNE_FILE
"$top/launch/vsym-run" -n 4 -- "$B/benches/peers/mpi-coll" -b 64 -e 1M -f 4 --only fused \
    --json "$R/mpi_fused_np4.jsonl" > "$R/mpi_fused_np4.txt" 2>&1
