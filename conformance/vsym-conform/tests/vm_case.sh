#!/usr/bin/env bash
# Runs inside the Soft-RoCE VM (see run_vm.sh): vm_case.sh SOURCE_DIR VSYM_CONFORM WORKDIR CASE...
# The cases run one after the other in the one guest; the first failure ends the run.
set -u
src=$1; bin=$2; work=$3; shift 3
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
# Node 1's end of the veth pair (rxe1's netdev), whose queue the netem cases degrade.
node1_netdev() { rdma link show rxe1/1 | sed -n 's/.* netdev \([^ ]*\).*/\1/p'; }
ibv_devinfo -l 2>&1 | head -5
for what in "$@"; do
    echo "== case $what"
    case "$what" in
    healthy)
        conform healthy -- "$bin" deploy --config "$cfg" --out "$work/h"; rc=$?
        [ $rc = 0 ] || fail "a healthy run exited $rc"
        for f in summary.txt junit.xml report.json bandwidth.png; do
            [ -s "$work/h/$f" ] || fail "$f missing"
        done
        summary_has "PASS  node 1 (host [^)]*): port_active: rxe1 port 1 is ACTIVE" "$work/h"
        summary_has "PASS  node 0 (host [^)]*): roce_v2_gid: RoCE v2 GID" "$work/h"
        summary_has "allreduce: correct" "$work/h"
        # The same cluster with a wrong expected MTU: exit 1 naming the check on both nodes.
        sed 's/"nodes": 2,/"nodes": 2, "mtu": 4096,/' "$cfg" > "$work/mtu.json"
        conform mtu -- "$bin" deploy --config "$work/mtu.json" --out "$work/m"; rc=$?
        [ $rc = 1 ] || fail "a wrong expected MTU exited $rc"
        summary_has "FAIL  node 0 (host [^)]*): mtu: active MTU [0-9]*, expected 4096" "$work/m"
        summary_has "FAIL  node 1 (host [^)]*): mtu: active MTU [0-9]*, expected 4096" "$work/m"
        ;;
    netem_delay|netem_rate)
        # Node 1's link: 5 ms of delay, the queue the launcher's --netem "1:delay 5ms" set up
        # (run_vm.sh), or 10 Mbit/s, set here (replacing whatever the queue had before).
        nd=$(node1_netdev)
        [ -n "$nd" ] || fail "no netdev under rxe1 ($(rdma link show 2>&1 | tr '\n' ' '))"
        if [ "$what" = netem_delay ]; then
            spec="delay 5ms"
            tc qdisc show dev "$nd" | grep -q "netem .*delay 5ms" ||
                fail "the launcher's --netem left no 'delay 5ms' on $nd: $(tc qdisc show dev "$nd")"
        else
            spec="rate 10mbit"
            modprobe sch_netem || fail "modprobe sch_netem failed"
            # shellcheck disable=SC2086
            tc qdisc replace dev "$nd" root netem $spec ||
                fail "tc qdisc replace dev $nd netem $spec"
        fi
        conform "$what" -- "$bin" deploy --config "$cfg" --out "$work/$what"; rc=$?
        tc qdisc del dev "$nd" root || fail "tc qdisc del dev $nd root"
        [ $rc = 1 ] || fail "a degraded link ($spec) exited $rc"
        summary_has "BAD LINK  node 0 (host [^)]*) <-> node 1 (host [^)]*)" "$work/$what"
        [ "$what" = netem_rate ] && summary_has "slow direction node 1 -> node 0" "$work/$what"
        ! grep -q "BAD PAIR\|DEAD RANK\|BAD NODE" "$work/$what/summary.txt" ||
            fail "the summary names more than the degraded link"
        ;;
    killed)
        # First the API suite over verbs (between pretend nodes) and shared memory (inside them).
        conform api -- "$bin" api --out "$work/a"; rc=$?
        [ $rc = 0 ] || fail "api mode over verbs exited $rc"
        summary_has "API checks: 7 pass, 0 warn, 0 fail" "$work/a"
        sed 's/"timeout_s": 20/"timeout_s": 8/' "$cfg" > "$work/k.json"
        conform killed --keep-going -- "$bin" deploy --config "$work/k.json" --out "$work/k" \
            --simulate-failure 3
        summary_has "DEAD RANK rank 3 (node 1, host [^,]*, pid [0-9]*) did not answer" "$work/k"
        summary_has "Result: FAIL" "$work/k"
        ;;
    *) fail "unknown case '$what'" ;;
    esac
    echo "PASS: vsym-conform in the VM: $what"
done
