#!/bin/bash
# Runs inside the vsym-softroce VM, chrooted into the host's root (read-only over 9p), as root.
# The host wrote /run/vsym/{config,env,cmd}; this script mounts the writable shares, sets up
# Soft-RoCE (one rxe device per pretend node), runs the command with its output on two
# virtio-serial ports (stdout, stderr), writes its exit status to /run/vsym/status and powers off.
# A setup failure goes to /run/vsym/guest_error (the host prints it and exits 125).
set -u
# The whole script is one block, read before it runs: editing the file cannot upset a run.
{
ctl=/run/vsym
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
poweroff_now() {
    sync
    echo o > /proc/sysrq-trigger
    sleep 60
}
setup_fail() {
    echo "$*" >> "$ctl/guest_error"
    [ -s "$ctl/setup.log" ] && sed 's/^/  | /' "$ctl/setup.log" >> "$ctl/guest_error"
    poweroff_now
}
# shellcheck source=/dev/null
. "$ctl/config" || setup_fail "cannot read $ctl/config"
# The setup commands' own messages: shown when a step fails.
exec 2>"$ctl/setup.log" >&2
[ -n "${debug:-}" ] && set -x

# Writable shares at the host's paths (parents first, so nested ones stay visible).
for i in "${!rw_tags[@]}"; do
    # A folder under the guest's fresh /tmp, /run or /dev/shm has to be made first.
    [ -d "${rw_paths[$i]}" ] || mkdir -p "${rw_paths[$i]}"
    mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=loose "${rw_tags[$i]}" "${rw_paths[$i]}" ||
        setup_fail "cannot mount the writable share ${rw_paths[$i]}"
done

# The command's stdout and stderr: virtio-serial ports named by the host.
port_of() {
    local p
    for p in /sys/class/virtio-ports/*; do
        [ "$(cat "$p/name" 2>/dev/null)" = "$1" ] && { echo "/dev/${p##*/}"; return 0; }
    done
    return 1
}
out=$(port_of vsym.out) || setup_fail "virtio-serial port vsym.out missing (virtio_console module?)"
err=$(port_of vsym.err) || setup_fail "virtio-serial port vsym.err missing (virtio_console module?)"
exec 3>"$out" 4>"$err"
say() { [ "$verbose" = 1 ] && echo "vsym-softroce: $*" >&4; }

hostname vsym-softroce 2>/dev/null
ip link set lo up || setup_fail "ip link set lo up failed (iproute2; launch/install-deps)"
# Link-local addresses (the RoCE v2 GIDs) become usable at once instead of after duplicate
# address detection.
sysctl -q -w net.ipv6.conf.default.accept_dad=0 net.ipv6.conf.all.accept_dad=0 \
    net.ipv6.conf.default.disable_ipv6=0 >/dev/null 2>&1
for m in rdma_rxe ib_uverbs rdma_ucm; do
    modprobe "$m" || setup_fail "modprobe $m failed: the kernel $(uname -r) has no $m module" \
        "(launch/install-deps installs linux-image-amd64)"
done
command -v rdma >/dev/null || setup_fail "the rdma tool is missing (iproute2; launch/install-deps)"

netdevs=()
if [ "$nodes" -le 1 ]; then
    modprobe dummy || setup_fail "modprobe dummy failed"
    ip link add d0 type dummy && ip link set d0 up || setup_fail "cannot create the dummy netdev d0"
    netdevs=(d0)
else
    modprobe veth || setup_fail "modprobe veth failed"
    if [ "$nodes" -eq 2 ]; then
        ip link add v0 type veth peer name v1 || setup_fail "cannot create the veth pair v0/v1"
        netdevs=(v0 v1)
    else
        modprobe bridge || setup_fail "modprobe bridge failed"
        ip link add br0 type bridge || setup_fail "cannot create the bridge br0"
        ip link set br0 up
        for ((i = 0; i < nodes; i++)); do
            ip link add "v$i" type veth peer name "b$i" || setup_fail "cannot create veth v$i/b$i"
            ip link set "b$i" master br0 && ip link set "b$i" up || setup_fail "cannot bridge b$i"
            netdevs+=("v$i")
        done
    fi
    for d in "${netdevs[@]}"; do ip link set "$d" up; done
fi
devices=()
for i in "${!netdevs[@]}"; do
    rdma link add "rxe$i" type rxe netdev "${netdevs[$i]}" ||
        setup_fail "rdma link add rxe$i type rxe netdev ${netdevs[$i]} failed"
    devices+=("rxe$i")
done
for spec in "${netem[@]}"; do
    node=${spec%%:*}
    qd=${spec#*:}
    [ "$node" -lt "${#netdevs[@]}" ] || setup_fail "--netem $spec: no pretend node $node"
    modprobe sch_netem || setup_fail "modprobe sch_netem failed"
    # shellcheck disable=SC2086
    tc qdisc add dev "${netdevs[$node]}" root netem $qd ||
        setup_fail "tc qdisc add dev ${netdevs[$node]} root netem $qd failed"
done

# Every device must be ACTIVE with its link-local GID before the command starts.
zero_gid=0000:0000:0000:0000:0000:0000:0000:0000
deadline=$(( $(date +%s) + 30 ))
for dev in "${devices[@]}"; do
    p=/sys/class/infiniband/$dev/ports/1
    while :; do
        gid=$(cat "$p/gids/0" 2>/dev/null)
        state=$(cat "$p/state" 2>/dev/null)
        [ -n "$gid" ] && [ "$gid" != "$zero_gid" ] && [ "${state#*: }" = ACTIVE ] && break
        [ "$(date +%s)" -lt "$deadline" ] ||
            setup_fail "$dev did not come up within 30 s (state '${state}', GID[0] '${gid}')"
        sleep 0.1
    done
done
ulimit -l unlimited
ulimit -n 65536 2>/dev/null

if [ "$verbose" = 1 ]; then
    say "guest up after $(cut -d' ' -f1 /proc/uptime) s of guest time ($(uname -r), $(nproc) cpus)"
    for dev in "${devices[@]}"; do
        info=$(ibv_devinfo -d "$dev" 2>&1)
        st=$(sed -n 's/^[[:space:]]*state:[[:space:]]*\([A-Z_]*\).*/\1/p' <<<"$info" | head -1)
        mtu=$(sed -n 's/^[[:space:]]*active_mtu:[[:space:]]*\([0-9]*\).*/\1/p' <<<"$info" | head -1)
        n=${dev#rxe}
        say "$dev on ${netdevs[$n]}: $st, active_mtu $mtu, GID[0] $(cat \
            /sys/class/infiniband/"$dev"/ports/1/gids/0)"
    done
fi

# shellcheck source=/dev/null
. "$ctl/cmd"
cd "$cwd" || setup_fail "cannot enter the working directory $cwd in the guest"
devlist=$(IFS=,; echo "${devices[*]}")
: > "$ctl/started"
env -i HOME=/root USER=root LOGNAME=root VSYM_DEVICE="$devlist" bash -c '
    . "$1/env"; shift; exec "$@"' vsym-env "$ctl" "${cmd[@]}" </dev/null >&3 2>&4
rc=$?
echo "$rc" > "$ctl/status"
exec 3>&- 4>&-
poweroff_now
exit
}
