#!/usr/bin/env bash
# vsym-report on a hand-made run (sweep_fixture.py run): a table per suite and chart on stdout,
# PNG and SVG charts (gnuplot), an index.html that shows every chart and the configuration.
#   sweep_report.sh SOURCE_DIR
set -u
src="${1:?usage: sweep_report.sh SOURCE_DIR}"
report="$src/results/vsym-report"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v gnuplot >/dev/null || { echo "SKIP: gnuplot not installed (apt-get install gnuplot-nox)"; exit 77; }

python3 "$src/conformance/unit/sweep_fixture.py" run "$tmp/run" || exit 1
"$report" "$tmp/run" > "$tmp/out" 2> "$tmp/err" || fail "report: exit $?: $(cat "$tmp/err")"
for t in "# put: latency, median (us)" "# put: bandwidth, average (GB/s)" \
         "# atomic: latency, median (us)" "# barrier: latency, median (us)" \
         "# allreduce: bus bandwidth (GB/s)" "# reshard: reshard bandwidth (GB/s)"; do
    grep -qF "$t" "$tmp/out" || fail "no table '$t'"
done
# Repeats are merged: the 8-byte put latency is the median of 0.501 and 0.511 (2 records).
grep -qE '^put +8 +0\.506 .* 2$' "$tmp/out" || fail "put 8 B row: $(grep -E '^put +8 ' "$tmp/out")"
grep -qE '^tp2->tp1pp2 +2M +3\.000' "$tmp/out" || fail "reshard row missing"
r="$tmp/run/report"
for c in put-latency put-bandwidth atomic-latency barrier-latency allreduce-busbw \
         allreduce-time reshard-bandwidth; do
    for ext in png svg; do
        [ -s "$r/$c.$ext" ] || fail "no $c.$ext"
    done
    head -c 8 "$r/$c.png" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a" || fail "$c.png is not a PNG"
    grep -q "<svg" "$r/$c.svg" || fail "$c.svg is not SVG"
    grep -q "src='$c.png'" "$r/index.html" || fail "index.html does not show $c.png"
done
for t in "Test CPU @ 1GHz" "VSYM_TRANSPORT" "hand-made records" "put.shm.n2.r2"; do
    grep -qF "$t" "$r/index.html" || fail "index.html lacks '$t'"
done
# Every image the page refers to exists.
for img in $(grep -o "src='[^']*'" "$r/index.html" | sed "s/src='\(.*\)'/\1/"); do
    [ -s "$r/$img" ] || fail "index.html refers to a missing $img"
done
# A single JSON-lines file works too, and --out puts the page elsewhere.
"$report" "$tmp/run/points/put.shm.n2.jsonl" --out "$tmp/one" --quiet 2>/dev/null ||
    fail "report of one file: exit $?"
[ -s "$tmp/one/index.html" ] && [ -s "$tmp/one/put-latency.png" ] || fail "one-file report"
# No records: exit 2 with a reason.
mkdir "$tmp/empty"
"$report" "$tmp/empty" > /dev/null 2> "$tmp/err"
[ $? = 2 ] && grep -q "no result records" "$tmp/err" || fail "empty run: $(cat "$tmp/err")"

[ "$fails" = 0 ] || exit 1
echo "sweep_report: all checks passed"
