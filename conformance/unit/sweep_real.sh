#!/usr/bin/env bash
# The whole workflow with the real vsym-bench: a small sweep (2 ranks, shm) into a run folder,
# a resume that runs nothing, a report with charts, a comparison of the run with itself.
#   sweep_real.sh SOURCE_DIR VSYM_BENCH
set -u
src="${1:?usage: sweep_real.sh SOURCE_DIR VSYM_BENCH}"
bench="${2:-}"
[ -x "$bench" ] || { echo "SKIP: vsym-bench not built ($bench)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
cat > "$tmp/s.toml" <<'TOML'
name = "real"
[defaults]
ranks = 2
transport = "shm"
iterations = 20
check = true
timeout = 120
[[matrix]]
suites = ["put"]
sizes = [{ b = "8", e = "4K", f = 8 }]
[[matrix]]
suites = ["atomic", "barrier"]
TOML
"$src/launch/vsym-sweep" "$tmp/s.toml" --bench "$bench" --out "$tmp/runs" --run-id r \
    > "$tmp/out" 2>&1 || fail "sweep: exit $?: $(tail -5 "$tmp/out")"
d="$tmp/runs/r"
for p in put.shm.n2.8-4Kx8 atomic.shm.n2 barrier.shm.n2; do
    [ -s "$d/points/$p.jsonl" ] || fail "point $p not recorded: $(tail -5 "$d/logs/$p.log" 2>&1)"
done
# put 8..4K by 8: 8, 64, 512, 4096 in three modes (put lat, pingpong lat, put bw).
n=$(wc -l < "$d/points/put.shm.n2.8-4Kx8.jsonl" 2>/dev/null)
[ "$n" = 12 ] || fail "put: $n records, expected 12"
"$src/launch/vsym-sweep" "$tmp/s.toml" --bench "$bench" --out "$tmp/runs" --run-id r \
    > "$tmp/out" 2>&1 || fail "resume: exit $?"
grep -q "3 of 3 points already recorded" "$tmp/out" || fail "resume: $(cat "$tmp/out")"
if command -v gnuplot >/dev/null; then
    "$src/results/vsym-report" "$d" > "$tmp/table" 2>&1 || fail "report: $(tail -3 "$tmp/table")"
    grep -q "^# put: latency, median (us) (shm 2 ranks)" "$tmp/table" || fail "report tables"
    [ -s "$d/report/put-latency.png" ] && [ -s "$d/report/index.html" ] || fail "report files"
fi
"$src/results/vsym-report" --compare "$d" "$d" > "$tmp/cmp" 2>&1 || fail "self-compare: $(tail -3 "$tmp/cmp")"
[ "$fails" = 0 ] || exit 1
echo "sweep_real: all checks passed"
