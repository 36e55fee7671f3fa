#!/usr/bin/env bash
# launch/vsym-softroce's boot rules with a fake qemu (no VM): a guest kernel that crashes while
# booting is booted once more and the command's exit status comes through; a second crash, or a
# guest that stops without a crash, gives exit 125 with the console shown; a crash after the
# command started is not retried.
#   softroce_boot.sh SOURCE_DIR
# Skips (77) when the VM's prerequisites (kernel with rdma_rxe, static busybox, ...) are missing:
# vsym-softroce checks them before it starts qemu.
set -u
src="${1:?usage: softroce_boot.sh SOURCE_DIR}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# The fake qemu: finds the run's control folder and console file in its arguments, opens the
# output FIFOs as qemu does, and plays the scenario in $FAKE_QEMU_PLAN, one word per boot:
#   oops      the kernel crashes before the command starts
#   silent    the guest stops before the command starts, printing nothing
#   late-oops the command starts, then the kernel crashes
#   ok:N      the command runs and exits with N
mkdir -p "$tmp/bin"
cat > "$tmp/bin/qemu-system-x86_64" <<'EOS'
#!/usr/bin/env bash
ctl=""; con=""
for a in "$@"; do
    case "$a" in
        *mount_tag=vsymctl*) ctl=${a#*path=}; ctl=${ctl%%,*} ;;
        file,id=con,path=*) con=${a#*path=} ;;
    esac
done
n=$(cat "$FAKE_QEMU_STATE" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "$FAKE_QEMU_STATE"
read -ra plan <<<"$FAKE_QEMU_PLAN"
step=${plan[$((n - 1))]:-silent}
exec 3>"$ctl/out.out" 4>"$ctl/err.out"
case "$step" in
    oops) printf '[    4.3] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI\n[    4.4] Kernel panic - not syncing: Fatal exception\n' > "$con" ;;
    silent) : > "$con" ;;
    late-oops) : > "$ctl/started"; echo '[   20.0] Oops: general protection fault' > "$con" ;;
    ok:*) : > "$ctl/started"; echo "command output" >&3; echo "${step#ok:}" > "$ctl/status" ;;
esac
exit 0
EOS
chmod +x "$tmp/bin/qemu-system-x86_64"
run() { # plan -> exit status in $rc, output in $tmp/out
    rm -f "$tmp/state"
    PATH="$tmp/bin:$PATH" FAKE_QEMU_PLAN="$1" FAKE_QEMU_STATE="$tmp/state" \
        XDG_CACHE_HOME="$tmp/cache" "$src/launch/vsym-softroce" --timeout 60 -- true \
        >"$tmp/out" 2>&1
    rc=$?
    boots=$(cat "$tmp/state" 2>/dev/null || echo 0)
}
run "ok:0"
if [ "$rc" = 125 ] && [ "$boots" = 0 ]; then
    echo "SKIP: the VM's prerequisites are missing: $(head -1 "$tmp/out")"
    exit 77
fi
[ "$rc" = 0 ] && [ "$boots" = 1 ] || fail "a clean boot: exit $rc after $boots boots ($(cat "$tmp/out"))"
grep -q "command output" "$tmp/out" || fail "the command's output did not come through"
run "oops ok:3"
[ "$rc" = 3 ] && [ "$boots" = 2 ] || fail "a crash at boot, then a good boot: exit $rc after $boots boots"
grep -q "crashed while booting (Oops: int3" "$tmp/out" || fail "no word of the retry: $(cat "$tmp/out")"
run "oops oops"
[ "$rc" = 125 ] && [ "$boots" = 2 ] || fail "two crashes: exit $rc after $boots boots, not 125 after 2"
grep -q "Kernel panic" "$tmp/out" || fail "two crashes: the console is not shown"
run "silent ok:0"
[ "$rc" = 125 ] && [ "$boots" = 1 ] || fail "a guest that stops without a crash is not booted again: exit $rc after $boots boots"
run "late-oops ok:0"
[ "$rc" = 125 ] && [ "$boots" = 1 ] || fail "a crash after the command started must not be retried: exit $rc after $boots boots"
grep -q "while the command was running" "$tmp/out" || fail "late crash: $(cat "$tmp/out")"
[ -z "$(ls "$tmp/cache/vsym-softroce/"*/ 2>/dev/null | grep '^run\.')" ] || fail "run folders left behind"
[ "$fails" = 0 ] && echo "softroce_boot: PASS"
[ "$fails" = 0 ]
