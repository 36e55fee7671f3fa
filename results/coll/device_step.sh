# The device scripts' time keeping, sourced by the run scripts of stops 33-38 (earlier ones keep
# their own forms): step NAME TIMEOUT COMMAND... runs COMMAND into $R/NAME.txt within what is
# left of $LIMIT seconds since the source (skipping it under 20 s) and logs its exit status
# and time to $R/progress.txt. Needs R and LIMIT set: device_setup BIN (stops 35-36) sets them,
# R=$OUT/$NAME (made) and LIMIT (default 560 s), with D=build-dev, LD_LIBRARY_PATH for the
# libraries build-dev carries (lib-pmix too where BIN lacks libpmix), and lscpu into R.
device_setup() { # bin
  D=$(pwd)/build-dev R=$OUT/$NAME
  mkdir -p "$R"
  LIMIT=${LIMIT:-560}
  export LD_LIBRARY_PATH=$D/lib
  if ldd "$1" | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
  lscpu > "$R/lscpu.txt" 2>&1
}
start=$(date +%s)
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
step() { # name timeout command...
  local name=$1 to=$2; shift 2
  local t=$(left); [ $t -lt 20 ] && { echo "skip $name: $t s left" >> $R/progress.txt; return; }
  [ $to -gt $t ] && to=$t
  timeout $to "$@" > $R/$name.txt 2>&1
  echo "exit $? $(date +%T) $name $(( $(date +%s) - start )) s" >> $R/progress.txt
}
# mpirun_step NAME NP ARGS...: step NAME (90 s at most) of mpirun with NP ranks bound to cores,
# the carried libraries' LD_LIBRARY_PATH exported to them (stop 38's scripts).
mpirun_step() {
  local name=$1 np=$2; shift 2
  step $name 90 mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH -np $np "$@"
}
