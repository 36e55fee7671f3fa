#!/usr/bin/env bash
# vsym-report --compare BASE NEW on hand-made runs: an unchanged copy passes (exit 0); a copy
# with one record 20% slower (latency up, or bandwidth down) fails (exit 1) naming that point
# and no other; BASE's spread over repeats widens the tolerance; nothing in common: exit 2.
#   sweep_compare.sh SOURCE_DIR
set -u
src="${1:?usage: sweep_compare.sh SOURCE_DIR}"
report="$src/results/vsym-report"
fixture="$src/conformance/unit/sweep_fixture.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

python3 "$fixture" run "$tmp/base" || exit 1
compare() { "$report" --compare "$@" > "$tmp/out" 2>&1; }

# 1. Unchanged copy.
cp -r "$tmp/base" "$tmp/same"
compare "$tmp/base" "$tmp/same"
rc=$?
[ "$rc" = 0 ] || fail "unchanged copy: exit $rc: $(tail -3 "$tmp/out")"
grep -q "41 points compared .*: 0 regressed" "$tmp/out" || fail "unchanged: $(tail -2 "$tmp/out")"

# 2. One latency record (a barrier, no repeats) 20% slower.
cp -r "$tmp/base" "$tmp/lat"
python3 "$fixture" slower "$tmp/lat/points/barrier.shm.n2.jsonl" barrier-signal-barrier 1.2
compare "$tmp/base" "$tmp/lat"
rc=$?
[ "$rc" = 1 ] || fail "20% slower barrier: exit $rc"
grep -q "^REGRESSED: barrier signal-barrier lat 0 B shm 2 ranks: latency median 5.5 -> 6.6 us (+20.0% slower" \
    "$tmp/out" || fail "regression not named: $(grep REGRESSED "$tmp/out")"
[ "$(grep -c '^REGRESSED:' "$tmp/out")" = 1 ] || fail "other points flagged: $(grep REGRESSED "$tmp/out")"
grep -qE "^barrier signal-barrier lat .* 1\.200 +\+20\.0% +5\.0% +REGRESSED" "$tmp/out" ||
    fail "ratio row: $(grep 'signal-barrier' "$tmp/out")"

# 3. One bandwidth record (the 2 MiB allreduce, busbw) 20% slower.
cp -r "$tmp/base" "$tmp/bw"
python3 "$fixture" slower "$tmp/bw/points/allreduce.shm.n2.jsonl" allreduce-in-place-2097152 1.2
compare "$tmp/base" "$tmp/bw"
[ $? = 1 ] || fail "20% slower allreduce: not flagged"
grep -q "^REGRESSED: allreduce in-place 2M B shm 2 ranks float sum auto: busbw" "$tmp/out" ||
    fail "allreduce regression not named: $(grep REGRESSED "$tmp/out")"

# 4. A point BASE ran twice: 4 KiB put latency 20% slower in both NEW repeats: flagged;
#    6% slower: within 5% plus BASE's 2% spread: passes; with --threshold 1 it does not.
cp -r "$tmp/base" "$tmp/rep"
python3 "$fixture" slower "$tmp/rep/points/put.shm.n2.jsonl" put-lat-4096-r1 1.2
python3 "$fixture" slower "$tmp/rep/points/put.shm.n2.r2.jsonl" put-lat-4096-r2 1.2
compare "$tmp/base" "$tmp/rep"
[ $? = 1 ] || fail "20% slower repeated point: not flagged"
grep -q "^REGRESSED: put lat 4K B shm 2 ranks pair 0-1: .*tolerance 7.0%)" "$tmp/out" ||
    fail "repeated point: $(grep -E 'REGRESSED|put lat 4K' "$tmp/out")"
cp -r "$tmp/base" "$tmp/noise"
python3 "$fixture" slower "$tmp/noise/points/put.shm.n2.jsonl" put-lat-4096-r1 1.06
python3 "$fixture" slower "$tmp/noise/points/put.shm.n2.r2.jsonl" put-lat-4096-r2 1.06
compare "$tmp/base" "$tmp/noise"
[ $? = 0 ] || fail "6% slower within 5% + 2% spread was flagged: $(grep REGRESSED "$tmp/out")"
compare "$tmp/base" "$tmp/noise" --threshold 1
[ $? = 1 ] || fail "--threshold 1 did not flag 6% slower with 2% spread"

# 5. Faster is not a regression.
compare "$tmp/lat" "$tmp/base"
[ $? = 0 ] || fail "an improvement was flagged"
grep -q "1 improved" "$tmp/out" || fail "improvement not counted: $(tail -2 "$tmp/out")"

# 6. Nothing in common: exit 2.
python3 - "$tmp/base/points/barrier.shm.n2.jsonl" "$tmp/other.jsonl" <<'PY'
import json, sys
with open(sys.argv[2], "w") as out:
    for line in open(sys.argv[1]):
        r = json.loads(line)
        r["config"] = dict(r["config"], ranks=4)
        out.write(json.dumps(r) + "\n")
PY
compare "$tmp/base" "$tmp/other.jsonl"
[ $? = 2 ] || fail "nothing in common: exit not 2"
compare "$tmp/base" "$tmp/missing"
[ $? = 2 ] || fail "missing run: exit not 2"

[ "$fails" = 0 ] || exit 1
echo "sweep_compare: all checks passed"
