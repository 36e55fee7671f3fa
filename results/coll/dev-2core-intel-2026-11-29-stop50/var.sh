#!/bin/bash
# Stop 50's settings trials: launches of one suite taking turns between named variants, each a
# list of environment settings, R rounds; prints one line per record: variant, mode, size, time
# (us), path. mpi: Open MPI's (benches/peers/mpi-coll) instead of vsym-bench.
#   SUITE=allreduce NP=2 R=3 SIZES="-b 8M -e 64M -f 2" \
#     VARS="default nt48m:VSYM_NT_THRESHOLD=48M mpi" bash var.sh > raw.txt
#   python3 var_table.py raw.txt   (medians; ratios to the first variant)
# BIN: another vsym-bench (default build/benches/vsym-bench); N: iterations (20).
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
B=${BUILD:-$root/build}/benches
SUITE=${SUITE:-allreduce}; NP=${NP:-2}; R=${R:-3}; SIZES=${SIZES:-"-b 2M -e 32M -f 4"}; N=${N:-20}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for round in $(seq "$R"); do
  for v in $VARS; do
    name=${v%%:*}; env=()
    if [[ $v == *:* ]]; then for kv in $(echo "${v#*:}" | tr ',' ' '); do env+=(-x "$kv"); done; fi
    f=$tmp/$name.$round.json
    if [ "$name" = mpi ]; then
      mpirun --allow-run-as-root --oversubscribe -np "$NP" "$B/peers/mpi-coll" $SIZES -n "$N" \
        --only "$SUITE" --json "$f" > /dev/null 2>&1
    else
      mpirun --allow-run-as-root --oversubscribe -np "$NP" "${env[@]}" "${BIN:-$B/vsym-bench}" \
        "$SUITE" $SIZES -n "$N" --quiet --json "$f" > /dev/null 2>&1
    fi
    python3 - "$name" "$f" <<'PY'
import json, sys
for line in open(sys.argv[2]):
    r = json.loads(line)
    t = r["time_us"] if "time_us" in r else r["lat_us"]["avg"]
    print(sys.argv[1], r["mode"], r["size"], round(t, 1), r.get("path", ""))
PY
  done
done
