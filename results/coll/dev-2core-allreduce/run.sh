#!/bin/bash
# All-reduce (f32 sum) from 16 B to 64 MiB on the 2-core development machine at 2 and 4 ranks:
# vsym-bench next to Open MPI's MPI_Allreduce (benches/peers/mpi-coll) and memcpy (the bandwidth
# bound), in one run.   [ROUNDS=3] [NPS="2 4"] results/coll/dev-2core-allreduce/run.sh BUILD_DIR [OUT_DIR (default: here)]
set -eu
B=${1:?usage: run.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
R=$(mkdir -p "${2:-$here}" && cd "${2:-$here}" && pwd)
run="$top/launch/vsym-run"
(nproc; lscpu | sed -n '1,15p'; uname -r; mpirun --version | head -1; git -C "$top" rev-parse --short HEAD) > "$R/host.txt" 2>&1
"$B/benches/peers/memcpy-bench" -b 4K -e 64M -f 4 --json "$R/memcpy.jsonl" > "$R/memcpy.txt" 2>&1
# The same memcpy while every other core copies too (memcpy-bench --loaded): the copy speed a
# rank gets while the others move their bytes, as in a collective (summarize.py's "loaded" bound).
"$B/benches/peers/memcpy-bench" -b 4K -e 64M -f 4 --only memcpy --loaded \
    --json "$R/memcpy_loaded.jsonl" > "$R/memcpy_loaded.txt" 2>&1
# ROUNDS (default 1) interleaved launches of both programs: this machine may run a whole launch
# at one of two speeds; summarize.py then takes each program's best launch per size.
rounds=${ROUNDS:-1}
for round in $(seq 1 "$rounds"); do
  sfx=""; [ "$rounds" -gt 1 ] && sfx="_r$round"
  for np in ${NPS:-2 4}; do
    "$run" -n $np -- "$B/benches/peers/mpi-coll" -b 16 -e 64M -f 4 --only allreduce \
        --json "$R/mpi_np$np$sfx.jsonl" > "$R/mpi_np$np$sfx.txt" 2>&1
    "$run" -n $np -- "$B/benches/vsym-bench" allreduce -b 16 -e 64M -f 4 --check \
        --json "$R/vsym_allreduce_np$np$sfx.jsonl" > "$R/vsym_allreduce_np$np$sfx.txt" 2>&1
  done
done
