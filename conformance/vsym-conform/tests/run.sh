#!/usr/bin/env bash
# Tests of vsym-conform on this machine (shared memory, no RDMA device).
#   run.sh api|deploy|wrong|killed|usage VSYM_RUN VSYM_CONFORM NP
# host.json does not require RDMA and does not judge timings (the ranks outnumber the cores
# here, so timings are noise); the cases check outcomes: exit status, named checks, files.
set -u
what=$1; run=$2; bin=$3; np=$4
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/vsym-conform-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# conform OUT_NAME [ARGS...]: run the tool through the launcher; output in $work/OUT_NAME.log
conform() {
    local name=$1; shift
    "$run" -n "$np" --timeout 240 "$@" > "$work/$name.log" 2>&1
    local rc=$?
    sed "s/^/  [$name] /" "$work/$name.log" | grep -v '^  \[[a-z0-9]*\] *$' | head -60
    return $rc
}
# json_get FILE EXPR: print a Python expression over the JSON document d
json_get() {
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"
}
check_files() {
    local out=$1
    for f in summary.txt junit.xml report.json; do
        [ -s "$out/$f" ] || fail "$out/$f missing"
    done
    python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$out/report.json" ||
        fail "report.json is not valid JSON"
    python3 -c "import xml.etree.ElementTree as E,sys; E.parse(sys.argv[1])" "$out/junit.xml" ||
        fail "junit.xml is not valid XML"
}

case "$what" in
api)
    conform api -- "$bin" api --out "$work/out"; rc=$?
    [ $rc = 0 ] || fail "api mode with $np ranks exited $rc"
    check_files "$work/out"
    grep -q "Result: PASS" "$work/out/summary.txt" || fail "no PASS in the summary"
    [ "$(json_get "$work/out/report.json" "d['summary']['pass']")" = 7 ] || fail "not 7 API checks"
    ;;
deploy)
    conform deploy -- "$bin" deploy --config "$here/host.json" --out "$work/out"; rc=$?
    [ $rc = 0 ] || fail "deploy exited $rc"
    check_files "$work/out"
    if command -v gnuplot > /dev/null; then
        [ -s "$work/out/bandwidth.png" ] || fail "bandwidth.png missing although gnuplot exists"
        head -c 8 "$work/out/bandwidth.png" | od -c | grep -q 'P   N   G' || fail "not a PNG"
    else
        grep -q "gnuplot not found" "$work/deploy.log" || fail "no warning about gnuplot"
    fi
    [ -s "$work/out/bandwidth.dat" ] && [ -s "$work/out/bandwidth.gp" ] || fail "heat map data"
    # The effective configuration is recorded; every node check has a testcase; 4 ranks on one
    # node with the ring sample test 4 pairs, all with validated data.
    [ "$(json_get "$work/out/report.json" "d['configuration']['fabric']['bw_size']")" = 262144 ] ||
        fail "effective configuration not recorded"
    [ "$(json_get "$work/out/report.json" "len(d['pairs'])")" = 4 ] || fail "not 4 pairs tested"
    errors="sum(sum(p['errors'].values()) for p in d['pairs'])"
    [ "$(json_get "$work/out/report.json" "$errors")" = 0 ] || fail "data errors"
    [ "$(grep -c '<testcase' "$work/out/junit.xml")" -ge 20 ] || fail "too few testcases"
    grep -q 'name="cpu_governor"' "$work/out/junit.xml" || fail "no governor testcase"
    grep -q "allreduce: correct" "$work/out/summary.txt" || fail "all-reduce not checked"
    ;;
wrong)
    # A wrong node count is a failure that names the check.
    printf '{"expect": {"nodes": 3}, "fabric": {"latency_factor": 1000, "bandwidth_fraction": 0,
             "latency_iters": 20, "bw_size": "64K"}}\n' > "$work/nodes.json"
    conform nodes -- "$bin" deploy --config "$work/nodes.json" --out "$work/o1"; rc=$?
    [ $rc = 1 ] || fail "a wrong node count exited $rc, expected 1"
    grep -q "FAIL  world: node_count: 1 nodes, expected 3" "$work/nodes.log" ||
        fail "the summary does not name node_count"
    grep -q '<failure message="1 nodes, expected 3"' "$work/o1/junit.xml" || fail "junit"
    # A governor that cannot match: WARN when this machine cannot tell its governor (the
    # default of expect.governor_unknown), FAIL when it can.
    printf '{"expect": {"governor": "no-such-governor"}, "fabric": {"latency_factor": 1000,
             "bandwidth_fraction": 0, "latency_iters": 20, "bw_size": "64K"}}\n' > "$work/gov.json"
    conform gov -- "$bin" deploy --config "$work/gov.json" --out "$work/o2"; rc=$?
    if grep -q "governor unknown" "$work/gov.log"; then
        [ $rc = 0 ] || fail "an unknown governor is a warning by default, exit $rc"
        grep -q "WARN  node 0 (host [^)]*): cpu_governor: governor unknown" "$work/gov.log" ||
            fail "no warning naming cpu_governor"
    else
        [ $rc = 1 ] || fail "a wrong governor exited $rc"
        grep -q "FAIL  node 0 (host [^)]*): cpu_governor" "$work/gov.log" || fail "not named"
    fi
    # With expect.governor_unknown = fail the mismatch fails in either case.
    printf '{"expect": {"governor": "no-such-governor", "governor_unknown": "fail"},
             "fabric": {"latency_factor": 1000, "bandwidth_fraction": 0, "latency_iters": 20,
             "bw_size": "64K"}}\n' > "$work/gov2.json"
    conform gov2 -- "$bin" deploy --config "$work/gov2.json" --out "$work/o3"; rc=$?
    [ $rc = 1 ] || fail "governor mismatch with governor_unknown=fail exited $rc"
    grep -q "FAIL  node 0 (host [^)]*): cpu_governor: .*expected no-such-governor" \
        "$work/gov2.log" || fail "cpu_governor not named"
    ;;
killed)
    # Rank 3 dies when the fabric checks start: its partners' waits time out naming it, rank 0
    # names it in the report, and nobody hangs.
    printf '{"fabric": {"timeout_s": 3, "latency_factor": 1000, "bandwidth_fraction": 0,
             "latency_iters": 20, "bw_size": "64K"}}\n' > "$work/k.json"
    conform killed --keep-going -- "$bin" deploy --config "$work/k.json" --out "$work/o" \
        --simulate-failure 3; rc=$?
    # mpirun --enable-recovery (vsym-run --keep-going) may exit 0 whatever the ranks return:
    # the verdict is checked in the report, which records rank 0's exit status.
    echo "  (launcher exit status $rc)"
    [ "$(json_get "$work/o/report.json" "d['exit_status']")" = 1 ] || fail "exit status not 1"
    grep -q "Result: FAIL" "$work/o/summary.txt" || fail "the summary does not say FAIL"
    grep -q "DEAD RANK rank 3 (node 0, host [^,]*, pid [0-9]*) did not answer" "$work/killed.log" ||
        fail "the summary does not name rank 3"
    [ "$(json_get "$work/o/report.json" "[r['rank'] for r in d['dead_ranks']]")" = "[3]" ] ||
        fail "report.json does not list rank 3 as dead"
    ;;
usage)
    "$bin" > /dev/null 2>&1; [ $? = 2 ] || fail "no mode: exit status not 2"
    "$bin" check > /dev/null 2>&1; [ $? = 2 ] || fail "bad mode: exit status not 2"
    "$bin" deploy --bogus > /dev/null 2>&1; [ $? = 2 ] || fail "bad option: exit status not 2"
    msg=$("$bin" deploy --config "$work/none.json" 2>&1); [ $? = 2 ] || fail "missing config"
    echo "$msg" | grep -q "^vsym-conform: unable to open $work/none.json: No such file" ||
        fail "missing config not named: $msg"
    echo '{"expect": {"mtuu": 4096}}' > "$work/typo.json"
    msg=$("$bin" deploy --config "$work/typo.json" 2>&1); [ $? = 2 ] || fail "typo: not 2"
    echo "$msg" | grep -q "unknown key expect.mtuu" || fail "typo not named: $msg"
    echo '{"fabric": {"bw_size": "12Q"}}' > "$work/bad.json"
    msg=$("$bin" deploy --config "$work/bad.json" 2>&1); [ $? = 2 ] || fail "bad size: not 2"
    echo "$msg" | grep -q "fabric.bw_size: bad value" || fail "bad value not named: $msg"
    "$bin" --help | grep -q "usage: vsym-conform" || fail "--help"
    ;;
*) echo "unknown case $what"; exit 2 ;;
esac
echo "PASS: vsym-conform $what"
