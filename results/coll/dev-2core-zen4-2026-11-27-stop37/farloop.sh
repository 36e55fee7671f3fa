#!/bin/bash
# Stop 37 (from the repository root): farloop.sh SECONDS ARGS..: VARIANTS="name:VAR=value ..."
# launches taking turns (runs.sh, the all-reduce at 4 ranks with ARGS), the round trip first.
here=$(cd "$(dirname "$0")" && pwd)
# rtt: a cache line's round trip (ns) between two threads pinned to CPUs 0 and 1 (rtt.c)
rtt=build/rtt-stop37
[ -x $rtt ] || gcc -O2 -pthread -o $rtt "$here/rtt.c"
end=$(( $(date +%s) + $1 )); shift
while [ $(date +%s) -lt $end ]; do
  for v in $VARIANTS; do
    name=${v%%:*}; envs=${v#*:}
    echo -n "rtt $($rtt) "; env $envs "$here/runs.sh" 1 $name "$@"
  done
done
