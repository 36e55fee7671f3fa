#!/bin/bash
# Stop 33: one build, launches taking turns between VSYM_NT_THRESHOLD=0 and auto; per launch the
# ordinary-buffer rows of the table, size in MiB: out-of-place us / in-place us.
# Usage: BENCH=path/to/vsym-bench nt_launches.sh NP COLL ROUNDS SIZES...
# (nt_launches.txt: 3f56173's build, NP 2, each collective, ROUNDS 3, -b 2M -e 64M -f 2 -n 20)
set -eu
np=$1 c=$2 R=$3
shift 3
for i in $(seq "$R"); do
    for t in 0 auto; do
        echo "$c np$np nt=$t $(VSYM_NT_THRESHOLD=$t launch/vsym-run -n "$np" -- "$BENCH" "$c" "$@" 2>&1 |
            awk 'BEGIN{m="O"} /symmetric buffers/{m="S"}
                 /^ +[0-9]+ +[0-9]+ /{if(m=="O") printf "%d:%.0f/%.0f ", $1/1048576, $3, $7}')"
    done
done
