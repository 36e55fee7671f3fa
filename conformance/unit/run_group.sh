#!/usr/bin/env bash
# conformance/vm/run-group outside the VM, with fake Soft-RoCE counters (VSYM_RXE_SYSFS):
# a binary that fails while the counters of retransmissions move runs once more and passes on
# the second run; a failure without retransmissions, or a second failure, fails the group; the
# report names both runs.
#   run_group.sh SOURCE_DIR
set -u
src="${1:?usage: run_group.sh SOURCE_DIR}"
rg="$src/conformance/vm/run-group"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
export VSYM_RXE_SYSFS="$tmp/sys"
for d in rxe0 rxe1; do
    mkdir -p "$tmp/sys/$d/ports/1/hw_counters"
    for f in duplicate_request out_of_seq_request rcvd_seq_err completer_retry_err \
             retry_exceeded_err rcvd_rnr_err send_err; do
        echo 0 > "$tmp/sys/$d/ports/1/hw_counters/$f"
    done
done
# A fake test binary: retransmits (bumps rxe1's completer_retry_err) and fails on its first
# run when told to; the count of runs is kept in a file.
mk() { # name retransmit(0|1) fail_runs(how many first runs fail)
    cat > "$tmp/$1" <<EOS
#!/usr/bin/env bash
n=\$(cat "$tmp/$1.runs" 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n > "$tmp/$1.runs"
[ "$2" = 1 ] && [ \$n = 1 ] && echo 3 > "$tmp/sys/rxe1/ports/1/hw_counters/completer_retry_err"
echo "fake test run \$n"
# The library refuses unknown VSYM_* settings: run-group's own must not reach the binaries.
env | grep -E '^VSYM_(VM_RERUN|STRICT|RXE_SYSFS)=' && { echo "FAIL: run-group's knobs leaked"; exit 1; }
[ \$n -le $3 ] && { echo "FAIL: run \$n"; exit 1; }
exit 0
EOS
    chmod +x "$tmp/$1"
}
run() { "$rg" -n 1 --timeout 60 --logs "$tmp/logs" -- "$@" > "$tmp/out" 2>&1; echo $?; }

mk flaky 1 1
rc=$(run "$tmp/flaky")
[ "$rc" = 0 ] || fail "a failure with retransmissions that passes on the rerun: exit $rc"
grep -q "^RUN1 flaky.*completer_retry_err+3.*running it again" "$tmp/out" ||
    fail "the first run is not reported: $(cat "$tmp/out")"
grep -q "^PASS flaky" "$tmp/out" || fail "no PASS line for the rerun"
grep -q "1 binaries ran twice" "$tmp/out" || fail "no count of reruns"
[ "$(cat "$tmp/flaky.runs")" = 2 ] || fail "flaky ran $(cat "$tmp/flaky.runs") times, not 2"
[ -f "$tmp/logs/flaky.np1.log.run1" ] || fail "the first run's log is not kept"

echo 0 > "$tmp/sys/rxe1/ports/1/hw_counters/completer_retry_err"
mk broken 0 1
rc=$(run "$tmp/broken")
[ "$rc" = 1 ] || fail "a failure without retransmissions: exit $rc, not 1"
[ "$(cat "$tmp/broken.runs")" = 1 ] || fail "a failure without retransmissions ran again"
grep -q "^FAIL broken" "$tmp/out" || fail "no FAIL line: $(cat "$tmp/out")"

mk twice 1 2
rc=$(run "$tmp/twice")
[ "$rc" = 1 ] || fail "a second failure: exit $rc, not 1"
[ "$(cat "$tmp/twice.runs")" = 2 ] || fail "twice ran $(cat "$tmp/twice.runs") times, not 2"

echo 0 > "$tmp/sys/rxe1/ports/1/hw_counters/completer_retry_err"
rm -f "$tmp/flaky.runs"
rc=$(VSYM_VM_RERUN=0 run "$tmp/flaky")
[ "$rc" = 1 ] || fail "VSYM_VM_RERUN=0: exit $rc, not 1"

mk clean 0 0
rc=$(VSYM_VM_RERUN=0 VSYM_STRICT=1 run "$tmp/clean")
[ "$rc" = 0 ] || fail "a passing binary under VSYM_VM_RERUN=0 VSYM_STRICT=1: exit $rc ($(cat "$tmp/out"))"

[ "$fails" = 0 ] && echo "run_group: PASS"
[ "$fails" = 0 ]
