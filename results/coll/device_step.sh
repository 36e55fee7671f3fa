# The device scripts' time keeping, sourced by the run scripts of stops 33-35 (earlier ones keep
# their own forms): step NAME TIMEOUT COMMAND... runs COMMAND into $R/NAME.txt within what is
# left of $LIMIT seconds since the source (skipping it under 20 s) and logs its exit status
# and time to $R/progress.txt. Needs R and LIMIT set.
start=$(date +%s)
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
step() { # name timeout command...
  local name=$1 to=$2; shift 2
  local t=$(left); [ $t -lt 20 ] && { echo "skip $name: $t s left" >> $R/progress.txt; return; }
  [ $to -gt $t ] && to=$t
  timeout $to "$@" > $R/$name.txt 2>&1
  echo "exit $? $(date +%T) $name $(( $(date +%s) - start )) s" >> $R/progress.txt
}
