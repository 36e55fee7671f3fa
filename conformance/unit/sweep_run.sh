#!/usr/bin/env bash
# vsym-sweep with a stand-in for vsym-bench (sweep_fixture.py bench), through launch/vsym-run:
# a run folder with one complete file per point and run.json; a second invocation skips the
# recorded points; an interrupted run (SIGINT) leaves no partial point and resumes; a failing
# point is not recorded, makes the exit status 1 and runs again on the next invocation.
#   sweep_run.sh SOURCE_DIR
set -u
src="${1:?usage: sweep_run.sh SOURCE_DIR}"
sweep="$src/launch/vsym-sweep"
tmp=$(mktemp -d)
sweep_pid=""
ompi_before=$(ls -d "${TMPDIR:-/tmp}"/ompi.*/pid.* 2>/dev/null | sort)
cleanup() {
    [ -n "$sweep_pid" ] && kill "$sweep_pid" 2>/dev/null
    rm -rf "$tmp"
    # The point interrupted on purpose kills mpirun before it removes its session folder: remove
    # the ones this test left (their mpirun is gone), so that nothing stays behind in /tmp.
    for d in $(ls -d "${TMPDIR:-/tmp}"/ompi.*/pid.* 2>/dev/null); do
        case "$ompi_before" in *"$d"*) continue ;; esac
        kill -0 "${d##*pid.}" 2>/dev/null || rm -rf "$d"
    done
}
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v mpirun >/dev/null || command -v prterun >/dev/null ||
    { echo "SKIP: no mpirun or prterun for launch/vsym-run"; exit 77; }

cat > "$tmp/bench" <<EOF
#!/bin/sh
exec python3 "$src/conformance/unit/sweep_fixture.py" bench "\$@"
EOF
chmod +x "$tmp/bench"
cat > "$tmp/s.toml" <<'EOF'
name = "fake"
[defaults]
ranks = 2
transport = "shm"
timeout = 60
[[matrix]]
suites = ["put", "get"]
sizes = ["8", { b = "64", e = "4K", f = 8 }]
[[point]]
suite = "barrier"
ranks = 2
transport = "verbs"
EOF
export SWEEP_FAKE_LOG="$tmp/calls"
run() { "$sweep" "$tmp/s.toml" --bench "$tmp/bench" --out "$tmp/runs" "$@"; }

# 1. A full run: 5 points, each a complete file with its records tagged by the point.
run --run-id r1 > "$tmp/out" 2>&1 || fail "first run: exit $?: $(cat "$tmp/out")"
d="$tmp/runs/r1"
[ "$(ls "$d/points" | wc -l)" = 5 ] || fail "expected 5 point files: $(ls -a "$d/points")"
[ "$(wc -l < "$d/points/put.shm.n2.64-4Kx8.jsonl")" = 3 ] || fail "64..4K by 8: 3 records"
[ "$(wc -l < "$SWEEP_FAKE_LOG")" = 5 ] || fail "5 calls expected: $(cat "$SWEEP_FAKE_LOG")"
grep -q '^barrier verbs$' "$SWEEP_FAKE_LOG" || fail "barrier did not run with VSYM_TRANSPORT=verbs"
python3 - "$d" <<'EOF' || fail "run.json or the point records are wrong"
import json, sys, glob
d = sys.argv[1]
m = json.load(open(d + "/run.json"))
assert m["status"] == "complete" and m["total"] == 5 and m["done"] == 5, m
assert m["sweep_name"] == "fake" and m["host"] and m["commit"], m
assert all(p["status"] == "done" for p in m["points"].values())
assert open(d + "/sweep.toml").read().startswith('name = "fake"')
for f in glob.glob(d + "/points/*.jsonl"):
    for line in open(f):
        r = json.loads(line)
        assert r["sweep"]["point"] + ".jsonl" == f.split("/")[-1], (f, r["sweep"])
EOF
compgen -G "$d/points/.*.partial.jsonl" >/dev/null && fail "a partial file was left"

# 2. The same run id again: nothing runs.
run --run-id r1 > "$tmp/out" 2>&1 || fail "second run: exit $?"
[ "$(wc -l < "$SWEEP_FAKE_LOG")" = 5 ] || fail "recorded points ran again: $(cat "$SWEEP_FAKE_LOG")"
grep -q "5 of 5 points already recorded" "$tmp/out" || fail "no skip message: $(cat "$tmp/out")"

# 3. Interrupted in the middle of a point (get sleeps), then resumed.
: > "$SWEEP_FAKE_LOG"
# Started directly (not through the shell function) so that $! is vsym-sweep itself.
SWEEP_FAKE_SLOW="get" "$sweep" "$tmp/s.toml" --bench "$tmp/bench" --out "$tmp/runs" --run-id r2 \
    > "$tmp/out" 2>&1 &
sweep_pid=$!
for _ in $(seq 600); do
    grep -q '^get' "$SWEEP_FAKE_LOG" 2>/dev/null && break
    sleep 0.1      # polling for the point to start, not synchronisation of results
done
kill -INT "$sweep_pid"
wait "$sweep_pid"
rc=$?
sweep_pid=""
[ "$rc" = 130 ] || fail "interrupted run: exit $rc, expected 130: $(cat "$tmp/out")"
grep -q "resume with:" "$tmp/out" || fail "no resume hint: $(cat "$tmp/out")"
d="$tmp/runs/r2"
[ "$(ls "$d/points" | wc -l)" = 2 ] || fail "after the interrupt: $(ls -a "$d/points")"
compgen -G "$d/points/.*.partial.jsonl" >/dev/null && fail "the interrupted point left a partial file"
grep -q '"status": "interrupted"' "$d/run.json" || fail "run.json does not say interrupted"
pgrep -f "$tmp/runs/r2/" >/dev/null && fail "the interrupted point is still running"
run --run-id r2 > "$tmp/out" 2>&1 || fail "resumed run: exit $?: $(cat "$tmp/out")"
[ "$(ls "$d/points" | wc -l)" = 5 ] || fail "after resuming: $(ls "$d/points")"
# put ran twice (before the interrupt), get: interrupted once + 2 runs, barrier once.
[ "$(grep -c '^put' "$SWEEP_FAKE_LOG")" = 2 ] || fail "put points ran again on resume"
[ "$(grep -c '^get' "$SWEEP_FAKE_LOG")" = 3 ] || fail "get calls: $(cat "$SWEEP_FAKE_LOG")"

# 4. A failing point: exit 1, not recorded, its log kept; retried on the next invocation.
: > "$SWEEP_FAKE_LOG"
SWEEP_FAKE_FAIL=barrier run --run-id r3 > "$tmp/out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "failing point: exit $rc, expected 1"
grep -q "point barrier.verbs.n2 FAILED" "$tmp/out" || fail "failure not named: $(cat "$tmp/out")"
[ -e "$tmp/runs/r3/points/barrier.verbs.n2.jsonl" ] && fail "the failed point was recorded"
grep -q "fails on purpose" "$tmp/runs/r3/logs/barrier.verbs.n2.log" || fail "no log of the failure"
run --run-id r3 > "$tmp/out" 2>&1 || fail "retry: exit $?"
[ "$(wc -l < "$SWEEP_FAKE_LOG")" = 6 ] || fail "retry calls: $(cat "$SWEEP_FAKE_LOG")"

# 5. Inside a Slurm allocation the points go through srun (a stand-in srun records its args).
mkdir "$tmp/bin"
cat > "$tmp/bin/srun" <<EOF
#!/bin/sh
echo "srun \$*" >> "$tmp/srun.args"
while [ "\$1" != "$tmp/bench" ]; do shift; done
exec "\$@"
EOF
chmod +x "$tmp/bin/srun"
PATH="$tmp/bin:$PATH" SLURM_JOB_ID=1 run --run-id r4 > "$tmp/out" 2>&1 || fail "srun run: $(cat "$tmp/out")"
grep -q -- "--mpi=pmix -n 2 --kill-on-bad-exit=1 $tmp/bench barrier" "$tmp/srun.args" ||
    fail "srun arguments: $(cat "$tmp/srun.args")"

[ "$fails" = 0 ] || exit 1
echo "sweep_run: all checks passed"
