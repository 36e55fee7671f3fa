#!/bin/bash
# The autotune table of the 2-core development host (stop 19: five interleaved rounds, fused modes
# compared with the baseline round by round), then the fused suite's timed rows with AUTO from
# it: 4 ranks (local tp 2 x dp 2 and the single-collective splits), f32 and bf16, 16 B - 1 MiB.
# Usage: run.sh BUILD_DIR OUT_DIR
B=$1; R=$2; mkdir -p "$R"
root=$(cd "$(dirname "$0")/../../.." && pwd)
build/benches/vsym-info > "$R/host.txt" 2>&1 || true
for dt in f32 bf16; do
  VSYM_AUTOTUNE_FILE="$R/autotune_np4.txt" "$root/launch/vsym-run" -n 4 -- "$B/benches/vsym-bench" \
      fused --dtype $dt -b 16 -e 1M -f 4 --check --json "$R/vsym_fused_${dt}_np4.jsonl" \
      > "$R/vsym_fused_${dt}_np4.txt" 2>&1
  echo "$dt exit $?"
done
