#!/bin/bash
# Stop 37 (from the repository root): farloop.sh SECONDS ARGS..: VARIANTS="name:VAR=value ..."
# launches taking turns (runs.sh, the all-reduce at 4 ranks with ARGS), the round trip first.
. "$(dirname "$0")/rtt_setup.sh"
end=$(( $(date +%s) + $1 )); shift
while [ $(date +%s) -lt $end ]; do
  for v in $VARIANTS; do
    name=${v%%:*}; envs=${v#*:}
    echo -n "rtt $($rtt) "; env $envs "$here/runs.sh" 1 $name "$@"
  done
done
