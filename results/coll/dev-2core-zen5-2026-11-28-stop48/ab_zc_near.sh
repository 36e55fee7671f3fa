#!/bin/bash
# Same-run A/B, symmetric all-reduce of 2 ranks out of place: VSYM_PUBLISH_STREAM auto (with the
# cores near: stores straight into the dsts below 8 MiB) against on (streams from 1 MiB, as auto
# does far: COLL_ZC_FAR_STREAM_MIN), launches in turns, a line round-trip probe (rtt.c of stop 37)
# before and after each launch. Usage, from the repository root (build in build/):
#   bash results/coll/dev-2core-zen5-2026-11-28-stop48/ab_zc_near.sh ROUNDS OUT.jsonl
# Each record is tagged {"ps": auto|on, "round": k, "rtt_before": ns, "rtt_after": ns}.
set -eu
rounds=$1 out=$2
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -pthread "$here/../dev-2core-zen4-2026-11-27-stop37/rtt.c" -o "$tmp/rtt"
for k in $(seq "$rounds"); do
    for ps in auto on; do
        b=$("$tmp/rtt")
        VSYM_PUBLISH_STREAM=$ps launch/vsym-run -n 2 --timeout 300 -- build/benches/vsym-bench \
            allreduce -b 512K -e 8M -f 2 -n 100 --check --json "$tmp/r.jsonl" >/dev/null
        a=$("$tmp/rtt")
        python3 -c '
import json, sys
ps, k, b, a, f = sys.argv[1:]
for line in open(f):
    r = json.loads(line)
    r.update(ps=ps, round=int(k), rtt_before=float(b), rtt_after=float(a))
    print(json.dumps(r))' "$ps" "$k" "$b" "$a" "$tmp/r.jsonl" >>"$out"
        rm -f "$tmp/r.jsonl"
    done
done
