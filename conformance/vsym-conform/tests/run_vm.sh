#!/usr/bin/env bash
# vsym-conform over verbs in the Soft-RoCE VM: 2 pretend nodes (VSYM_VIRTUAL_NODES=2), each with
# its own rxe device on its own end of a veth pair, 4 ranks. One guest boot runs a group's cases
# (vm_case.sh), one after the other:
#   run_vm.sh verbs|netem SOURCE_DIR VSYM_CONFORM
# verbs: healthy (exit 0 with vm.json; a wrong expected MTU fails naming mtu), then killed (api
#   mode passes over verbs; then rank 3 dies in deploy and the report names it).
# netem: node 1's link degraded, 5 ms of delay then 10 Mbit/s (netem_delay, netem_rate): exit 1
#   and the summary names exactly that link (and, for the rate, the slow direction node 1 ->
#   node 0).
# Skips (77) when launch/vsym-softroce is missing or the VM cannot boot (exit 125).
set -u
group=$1; src=$2; bin=$3
softroce=$src/launch/vsym-softroce
[ -x "$softroce" ] || { echo "SKIP: $softroce missing"; exit 77; }
# The guest sees the host's files read-only and the current folder writable: work in a folder
# of the build tree (the guest's /tmp is not the host's).
work=$(mktemp -d "$PWD/conform-vm-$group.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
args=(--nodes 2 --timeout 800)
# LeakSanitizer's suppressions of the PMIx library's leaks (ctest sets them for sanitizer builds)
# reach the ranks in the guest too.
[ -n "${LSAN_OPTIONS:-}" ] && args+=(--env "LSAN_OPTIONS=$LSAN_OPTIONS")
# netem's queue reorders packets that two vCPUs enqueue at nearly the same time; Soft-RoCE then
# retransmits, and a retransmitted atomic now and then loses its completion (issue 4), so the
# degraded-link cases run on one vCPU, where nothing is reordered. The delay sits far from
# vm.json's max_latency_us (2000) on both sides: with 5 ms the pairs' latency (min) was 3334-3483
# us, healthy 299-522 us (522 on a slow day of the host, over the 500 us the limit was with a
# delay of 2 ms, whose pairs took 1381-1878 us). The launcher's own --netem sets the delay (so
# that option is tested); vm_case.sh checks that queue, then replaces it for the rate case.
case "$group" in
    verbs) cases=(healthy killed) ;;
    netem) cases=(netem_delay netem_rate); args+=(--smp 1 --netem "1:delay 5ms") ;;
    *) echo "run_vm.sh: unknown group '$group' (verbs, netem)" >&2; exit 2 ;;
esac
"$softroce" "${args[@]}" -- bash "$src/conformance/vsym-conform/tests/vm_case.sh" "$src" "$bin" \
    "$work" "${cases[@]}"
rc=$?
[ $rc = 125 ] && { echo "SKIP: the Soft-RoCE VM cannot start here"; exit 77; }
exit $rc
