#!/bin/bash
# Launches taking turns between two variants of a run (stop 57):
#   turns.sh OUT "COLL:NP ..." "SIZES" A ENV_A B ENV_B [MODES]
# Each round, variant A then B, each COLL:NP (vsym-bench suite and ranks), each mode of MODES
# (default "plain tc"; tc: --touch --consume): one launch of vsym-bench COLL SIZES with the
# variant's environment (ENV_*: NAME=VALUE ..., or - for none; BENCH_BIN=PATH runs another
# build's vsym-bench), records in OUT/VARIANT.MODE.ROUND.COLLNP.jsonl. Rounds: 1..ROUNDS
# (default 6), or while the clock is before DEADLINE (epoch seconds) where that is set.
cd "$(dirname "$0")/../../.." || exit 1
out=$1 colls=$2 sizes=$3 a=$4 enva=$5 b=$6 envb=$7 modes=${8:-plain tc}
mkdir -p "$out"
round=0
while :; do
  round=$((round + 1))
  if [ -n "${DEADLINE:-}" ]; then [ "$(date +%s)" -lt "$DEADLINE" ] || break
  else [ $round -le "${ROUNDS:-6}" ] || break; fi
  for v in "$a" "$b"; do
    envv=$enva; [ "$v" = "$b" ] && envv=$envb; [ "$envv" = - ] && envv=
    for cn in $colls; do
      for m in $modes; do
        extra=; [ "$m" = tc ] && extra="--touch --consume"
        # shellcheck disable=SC2086
        env $envv bash -c 'launch/vsym-run -n "$1" -- "${BENCH_BIN:-build/benches/vsym-bench}" \
          "$2" $3 $4 --quiet --json "$5"' _ "${cn#*:}" "${cn%:*}" "$sizes" "$extra" \
          "$out/$v.$m.$round.${cn%:*}${cn#*:}.jsonl" > /dev/null 2>&1 || echo "failed: $v $m $round $cn"
      done
    done
  done
done
