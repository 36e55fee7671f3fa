# One round of an A/B of two vsym-bench builds, sourced by the stops' A/B scripts:
#   ab_round ROUND NAME NP ARGS...
# runs `launch/vsym-run -n NP -- BIN ARGS --json OUT/{old,new}[_NAME]_ROUND.json` with BIN = $OLD
# and $NEW, old first in odd rounds and new first in even ones. AB_TUNE=1: each launch with a fresh
# autotune table (VSYM_AUTOTUNE_FILE=OUT/at_{old,new}_ROUND.txt), so its AUTO rows are its own.
ab_round() {
  local i=$1 name=$2 np=$3 order v bin tag
  shift 3
  if [ $((i % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for v in $order; do
    bin=$OLD; [ $v = new ] && bin=$NEW
    tag=$v; [ -n "$name" ] && tag="${v}_$name"
    local env=()
    if [ "${AB_TUNE:-0}" = 1 ]; then
      rm -f "$OUT/at_${v}_$i.txt"
      env=(VSYM_AUTOTUNE_FILE="$OUT/at_${v}_$i.txt")
    fi
    env "${env[@]}" "$(dirname "${BASH_SOURCE[0]}")/../../launch/vsym-run" -n "$np" -- "$bin" "$@" \
      --json "$OUT/${tag}_$i.json" > /dev/null 2>&1 || echo "launch $tag $i failed"
  done
}
# ab_start ROUNDS: checks OLD, NEW and OUT are set, ROUNDS defaulted to its argument, OUT made
# (stop 50's A/B scripts).
ab_start() {
  : "${OLD:?}" "${NEW:?}" "${OUT:?}"
  ROUNDS=${ROUNDS:-$1}
  mkdir -p "$OUT"
}
