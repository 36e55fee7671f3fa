#!/usr/bin/env bash
# benches/peers/verbs-compare's command line without a VM: a bad --only or --sizes is exit 2 with
# a line naming the option and the value, and leaves no results folder; --help lists the options;
# the table computed from raw files.
#   verbs_compare_cli.sh SOURCE_DIR BUILD_DIR
set -u
src="${1:?usage: verbs_compare_cli.sh SOURCE_DIR BUILD_DIR}"
build="${2:?usage: verbs_compare_cli.sh SOURCE_DIR BUILD_DIR}"
vc="$src/benches/peers/verbs-compare"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

bad() { # expected-text args...
  local want=$1; shift
  PYTHONDONTWRITEBYTECODE=1 "$vc" "$build" "$tmp/out" "$@" > "$tmp/log" 2>&1
  local rc=$?
  [ "$rc" = 2 ] || fail "$*: exit $rc, expected 2: $(tail -2 "$tmp/log")"
  grep -q -- "$want" "$tmp/log" || fail "$*: no '$want' in: $(tail -2 "$tmp/log")"
  [ ! -e "$tmp/out" ] || fail "$*: the results folder was made"
}
bad "--only takes some of put,get,atomic,lat,signal; unknown: 'puts'" --only puts
bad "unknown: 'foo'" --only get,foo
bad "--sizes takes byte counts" --sizes 64K
bad "positive byte counts, got '0,65536'" --sizes 0,65536
bad "--repeat needs a positive count" --repeat 0

PYTHONDONTWRITEBYTECODE=1 "$vc" --help > "$tmp/help" 2>&1 || fail "--help: exit $?"
for opt in --only --sizes --no-blocking --repeat --quick; do
  grep -q -- "$opt" "$tmp/help" || fail "--help does not mention $opt"
done
# The report from raw files alone (--skip-perftest --skip-vsym): the put+sig row against
# ib_write_bw (perftest's MB are 2^20 bytes: 50.00 is 52.4 MB/s; vsym 0.04 GB/s is 40.0 MB/s).
mkdir -p "$tmp/rep"
printf ' 65536      1024           60.00              50.00              0.800000\n' \
  > "$tmp/rep/perftest-ib_write_bw-64K.txt"
echo '{"mode":"bw","size":65536,"op":"put-signal-nbi","bw_gbs":{"avg":0.04}}' \
  > "$tmp/rep/vsym-put-signal-nbi-bw-64K.jsonl"
PYTHONDONTWRITEBYTECODE=1 "$vc" "$build" "$tmp/rep" --only signal --sizes 65536 --no-blocking \
  --skip-perftest --skip-vsym > "$tmp/replog" 2>&1 || fail "report from raw files: exit $?: $(tail -2 "$tmp/replog")"
grep -Eq '^put\+sig bw +ib_write_bw +64K +52\.4 +40\.0 MB/s +0\.76$' "$tmp/rep/compare.txt" ||
  fail "report from raw files: no put+sig row of 52.4 / 40.0 MB/s, ratio 0.76: $(cat "$tmp/rep/compare.txt")"
[ "$fails" = 0 ] && echo "verbs-compare command line: ok"
exit $((fails > 0))
