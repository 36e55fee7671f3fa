#!/usr/bin/env bash
# The all-reduce's bound between 2 ranks, 2-64 MiB, and the kernel's process-to-process copy that
# its ordinary buffers go through (path process-copy): per round and size, back to back,
# memcpy-bench alone, vsym-bench allreduce (2 ranks, f32, ordinary and symmetric buffers, out of
# place and in place), memcpy-bench --loaded (every CPU copying), and cma_probe (stop 29's
# process_vm_readv of SIZE bytes in 256 KiB calls, the all-reduce's block between 2 ranks, next to
# memcpy in the same process). Records into OUT/recs (JSON lines; cma.txt for the probe).
#   bash bound.sh BUILD OUT [ROUNDS]
set -eu
build="$1" out="$2" rounds="${3:-3}"
here="$(cd "$(dirname "$0")" && pwd)" root="$(cd "$here/../../.." && pwd)"
mkdir -p "$out/recs"
probe="$out/cma_probe"
gcc -O2 -o "$probe" "$root/results/coll/device-16core-2026-11-26-stop29/cma_probe.c"
for round in $(seq 1 "$rounds"); do
  for s in 2097152 4194304 8388608 16777216 33554432 67108864; do
    one=(-b "$s" -e "$s" -n 20)
    "$build/benches/peers/memcpy-bench" "${one[@]}" --json "$out/recs/alone-$round-$s.jsonl" >/dev/null
    "$root/launch/vsym-run" -n 2 -- "$build/benches/vsym-bench" allreduce --check --quiet \
      "${one[@]}" --json "$out/recs/ar-$round-$s.jsonl" >/dev/null
    "$build/benches/peers/memcpy-bench" "${one[@]}" --loaded \
      --json "$out/recs/loaded-$round-$s.jsonl" >/dev/null
    echo "round $round $("$probe" "$s" 262144)" >> "$out/recs/cma.txt"
  done
done
rm -f "$probe"
