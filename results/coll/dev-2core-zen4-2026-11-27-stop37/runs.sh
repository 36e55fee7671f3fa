#!/bin/bash
# Stop 37 (from the repository root): runs.sh N LABEL ARGS..: N launches of the all-reduce at 4
# ranks with ARGS, one line each: every row's size, out-of-place and in-place time.
n=$1; shift; lab=$1; shift
for i in $(seq $n); do echo -n "$lab: "; timeout 120 launch/vsym-run -n 4 -- build/benches/vsym-bench allreduce "$@" 2>&1 | grep -E "^ +[0-9]" | awk '{printf "%s %s %s %s %s| ", $1, $3, $7, $11, $15}'; echo; done
