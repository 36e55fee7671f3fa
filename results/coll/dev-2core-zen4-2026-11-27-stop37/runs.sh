#!/bin/bash
# usage: runs.sh N LABEL args...
n=$1; shift; lab=$1; shift
for i in $(seq $n); do echo -n "$lab: "; timeout 120 launch/vsym-run -n 4 -- build/benches/vsym-bench allreduce "$@" 2>&1 | grep -E "^ +[0-9]" | awk '{printf "%s %s %s %s %s| ", $1, $3, $7, $11, $15}'; echo; done
