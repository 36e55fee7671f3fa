# Sourced by stop 37's scripts (run from the repository root, after a build in build/).
# $rtt: a cache line's round trip (ns) between two threads pinned to CPUs 0 and 1 (rtt.c), built
# into build/ at first use. timed OUT NAME CMD..: runs CMD (which writes OUT/tmp.jsonl) between two
# readings of it and keeps the records as OUT/NAME_BEFORE_AFTER.jsonl.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rtt=build/rtt-stop37
[ -x $rtt ] || gcc -O2 -pthread -o $rtt "$here/rtt.c"
timed() {
  local out=$1 name=$2 a b
  shift 2
  a=$($rtt)
  "$@" > /dev/null 2>&1
  b=$($rtt)
  mv "$out/tmp.jsonl" "$out/${name}_${a}_${b}.jsonl" 2> /dev/null
}
