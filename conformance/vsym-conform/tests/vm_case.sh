#!/usr/bin/env bash
# Runs inside the Soft-RoCE VM (see run_vm.sh): vm_case.sh CASE SOURCE_DIR VSYM_CONFORM WORKDIR
set -u
what=$1; src=$2; bin=$3; work=$4
run=$src/launch/vsym-run
cfg=$src/conformance/vsym-conform/tests/vm.json
fail() { echo "FAIL: $*"; exit 1; }
# Soft-RoCE's counters of retransmissions and errors, summed over the devices (shown with each
# run, so that a failure says what the emulated transport did meanwhile).
rxe_counters() {
    local f
    for f in duplicate_request out_of_seq_request rcvd_seq_err completer_retry_err \
             retry_exceeded_err rcvd_rnr_err send_err; do
        cat /sys/class/infiniband/*/ports/1/hw_counters/$f 2>/dev/null |
            awk -v n=$f '{ s += $1 } END { if (NR && s) printf "%s=%d ", n, s }'
    done
}
conform() {
    local name=$1; shift
    # Small heaps: the VM has 2 GiB and every rank registers its whole arena.
    env VSYM_VIRTUAL_NODES=2 VSYM_HEAP_SIZE=32M VSYM_INTERNAL_SIZE=16M "$run" -n 4 --timeout 600 \
        "$@" > "$work/$name.log" 2>&1
    local rc=$?
    sed "s/^/  [$name] /" "$work/$name.log" | head -80
    echo "  [$name] exit $rc; Soft-RoCE counters so far: $(rxe_counters)"
    return $rc
}
summary_has() { grep -q -- "$1" "$2/summary.txt" || fail "summary lacks: $1"; }
ibv_devinfo -l 2>&1 | head -5
case "$what" in
healthy)
    conform healthy -- "$bin" deploy --config "$cfg" --out "$work/o"; rc=$?
    [ $rc = 0 ] || fail "a healthy run exited $rc"
    for f in summary.txt junit.xml report.json bandwidth.png; do
        [ -s "$work/o/$f" ] || fail "$f missing"
    done
    summary_has "PASS  node 1 (host [^)]*): port_active: rxe1 port 1 is ACTIVE" "$work/o"
    summary_has "PASS  node 0 (host [^)]*): roce_v2_gid: RoCE v2 GID" "$work/o"
    summary_has "allreduce: correct" "$work/o"
    # The same cluster with a wrong expected MTU: exit 1 naming the check on both nodes.
    sed 's/"nodes": 2,/"nodes": 2, "mtu": 4096,/' "$cfg" > "$work/mtu.json"
    conform mtu -- "$bin" deploy --config "$work/mtu.json" --out "$work/m"; rc=$?
    [ $rc = 1 ] || fail "a wrong expected MTU exited $rc"
    summary_has "FAIL  node 0 (host [^)]*): mtu: active MTU [0-9]*, expected 4096" "$work/m"
    summary_has "FAIL  node 1 (host [^)]*): mtu: active MTU [0-9]*, expected 4096" "$work/m"
    ;;
netem_delay|netem_rate)
    conform netem -- "$bin" deploy --config "$cfg" --out "$work/o"; rc=$?
    [ $rc = 1 ] || fail "a degraded link exited $rc"
    summary_has "BAD LINK  node 0 (host [^)]*) <-> node 1 (host [^)]*)" "$work/o"
    [ "$what" = netem_rate ] && summary_has "slow direction node 1 -> node 0" "$work/o"
    ! grep -q "BAD PAIR\|DEAD RANK\|BAD NODE" "$work/o/summary.txt" ||
        fail "the summary names more than the degraded link"
    ;;
killed)
    # First the API suite over verbs (between pretend nodes) and shared memory (inside them).
    conform api -- "$bin" api --out "$work/a"; rc=$?
    [ $rc = 0 ] || fail "api mode over verbs exited $rc"
    summary_has "API checks: 7 pass, 0 warn, 0 fail" "$work/a"
    sed 's/"timeout_s": 20/"timeout_s": 8/' "$cfg" > "$work/k.json"
    conform killed --keep-going -- "$bin" deploy --config "$work/k.json" --out "$work/o" \
        --simulate-failure 3
    summary_has "DEAD RANK rank 3 (node 1, host [^,]*, pid [0-9]*) did not answer" "$work/o"
    summary_has "Result: FAIL" "$work/o"
    ;;
esac
echo "PASS: vsym-conform in the VM: $what"
