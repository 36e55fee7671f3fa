#!/bin/bash
# The 2-rank all-reduce's fraction of the memory-bandwidth bound, as the main job's compare
# (--bound-min) measures it, but only with the cores in a known state: a line round-trip probe
# (rtt.c of stop 37) before and after each size, sizes 1-64 MiB by 4, each size back to back:
# memcpy-bench alone, vsym-bench allreduce (ordinary and symmetric buffers, out of and in place),
# memcpy-bench --loaded. Usage (from the repository root, build in build/):
#   bash results/coll/dev-2core-zen5-2026-11-28-stop48/bound_probe.sh OUT.jsonl
# Each record is tagged with {"rtt_before": ns, "rtt_after": ns, "copy": alone|loaded}.
set -eu
out=$1
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -pthread "$here/../dev-2core-zen4-2026-11-27-stop37/rtt.c" -o "$tmp/rtt"
for s in 1M 4M 16M 64M; do
    b=$("$tmp/rtt")
    build/benches/peers/memcpy-bench -b $s -e $s --json "$tmp/alone.jsonl" >/dev/null
    launch/vsym-run -n 2 --timeout 300 -- build/benches/vsym-bench allreduce -b $s -e $s \
        --check --json "$tmp/ar.jsonl" >/dev/null
    build/benches/peers/memcpy-bench --loaded -b $s -e $s --json "$tmp/loaded.jsonl" >/dev/null
    a=$("$tmp/rtt")
    python3 - "$tmp" "$b" "$a" >>"$out" <<'PY'
import json, sys
d, b, a = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
for name, copy in (("alone", "alone"), ("ar", None), ("loaded", "loaded")):
    for line in open(f"{d}/{name}.jsonl"):
        r = json.loads(line)
        r["rtt_before"], r["rtt_after"] = b, a
        if copy:
            r["copy"] = copy
        print(json.dumps(r))
PY
    rm -f "$tmp"/*.jsonl
done
