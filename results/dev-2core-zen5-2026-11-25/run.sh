#!/bin/bash
# Every headline of issues 5, 6 and 7 on the 2-core development machine of stop 17 (AMD EPYC,
# family 26 "Zen 5"; earlier runs in results/ came from a family-23 EPYC), each next to its
# reference in the same run:
#   coll/     all-reduce 16 B - 64 MiB at 2 and 4 ranks vs Open MPI and memcpy (alone and one per
#             core at once), ROUNDS interleaved launches (results/coll/dev-2core-allreduce/run.sh);
#             the fused suite at 4 ranks (f32, bf16) with autotune (table saved here) and the
#             TP-then-DP MPI sequence;
#   copy/     the copy service: ring at 2 ranks, all-to-all at 4, vs the lone and the loaded put;
#   reshard/  llama3-8b at 1/16 between three layout pairs vs the copy service on the same tasks.
#   [ROUNDS=3] results/dev-2core-zen5-2026-11-25/run.sh BUILD_DIR [OUT_DIR (default: here)]
set -u
B=$(cd "${1:?usage: run.sh BUILD_DIR [OUT_DIR]}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
R=$(mkdir -p "${2:-$here}" && cd "${2:-$here}" && pwd)
run="$top/launch/vsym-run"
rounds=${ROUNDS:-3}
mkdir -p "$R/coll" "$R/copy" "$R/reshard"
ROUNDS=$rounds "$top/results/coll/dev-2core-allreduce/run.sh" "$B" "$R/coll"
"$run" -n 4 -- "$B/benches/peers/mpi-coll" -b 16 -e 1M -f 4 --only fused \
    --json "$R/coll/mpi_fused_np4.jsonl" > "$R/coll/mpi_fused_np4.txt" 2>&1
for dt in f32 bf16; do
  VSYM_AUTOTUNE_FILE="$R/coll/autotune_np4.txt" "$run" -n 4 -- "$B/benches/vsym-bench" fused \
      --dtype $dt -b 16 -e 1M -f 4 --check --json "$R/coll/vsym_fused_${dt}_np4.jsonl" \
      > "$R/coll/vsym_fused_${dt}_np4.txt" 2>&1
done
for round in $(seq 1 "$rounds"); do
  "$run" -n 2 -- "$B/benches/vsym-bench" copy --pattern ring -b 1M -e 64M -f 8 --check \
      --json "$R/copy/copy_ring_np2_r$round.jsonl" > "$R/copy/copy_ring_np2_r$round.txt" 2>&1
  "$run" -n 4 -- "$B/benches/vsym-bench" copy --pattern alltoall -b 1M -e 16M -f 4 --check \
      --json "$R/copy/copy_alltoall_np4_r$round.jsonl" > "$R/copy/copy_alltoall_np4_r$round.txt" 2>&1
  for c in "2 --from tp=2 --to tp=1,dp=2" "4 --from tp=2,pp=2 --to tp=4" \
           "4 --from tp=4 --to tp=2,dp=2"; do
    set -- $c; np=$1; shift; tag=np${np}_$(echo "$2_$4" | tr -d '=,')
    "$run" -n $np -- "$B/benches/vsym-bench" reshard --model llama3-8b "$@" --scale 1/16 --check \
        -n 10 --json "$R/reshard/reshard_${tag}_r$round.jsonl" \
        > "$R/reshard/reshard_${tag}_r$round.txt" 2>&1
  done
done
python3 "$top/results/coll/summarize.py" "$R/coll" > "$R/coll/summary.txt" 2>&1
