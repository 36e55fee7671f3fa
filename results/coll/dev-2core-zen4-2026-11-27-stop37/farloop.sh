#!/bin/bash
# pairs of launches with rtt before each; $1 = seconds to run; VARIANTS="name:ENV=val ..." 
end=$(( $(date +%s) + $1 )); shift
while [ $(date +%s) -lt $end ]; do
  for v in $VARIANTS; do
    name=${v%%:*}; envs=${v#*:}
    echo -n "rtt $(/tmp/rtt) "; env $envs /tmp/runs.sh 1 $name "$@"
  done
done
