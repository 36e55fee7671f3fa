#!/usr/bin/env bash
# Sweep files: every example parses; bad files exit 2 with "FILE:LINE: field 'NAME': why".
#   sweep_parse.sh SOURCE_DIR
set -u
src="${1:?usage: sweep_parse.sh SOURCE_DIR}"
sweep="$src/launch/vsym-sweep"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for f in "$src"/launch/sweeps/*.toml; do
    n=$("$sweep" "$f" --dry-run --out "$tmp/runs" 2>"$tmp/err" | wc -l)
    rc=${PIPESTATUS[0]}
    [ "$rc" = 0 ] && [ "$n" -gt 0 ] || fail "$f: exit $rc, $n points: $(cat "$tmp/err")"
done
# The local example: (4 suites x 1 range + put-signal + 3 sizeless suites) x 3 repeats.
n=$("$sweep" "$src/launch/sweeps/local.toml" --dry-run --out "$tmp/runs" | wc -l)
[ "$n" = 24 ] || fail "local.toml: $n points, expected 24"
[ ! -e "$tmp/runs" ] || fail "--dry-run created the run folder"
# Transports and launchers: vm = true wraps vsym-run in vsym-softroce (--nodes for vnodes);
# in a Slurm allocation the points go through srun with the node count.
"$sweep" "$src/launch/sweeps/local-vm.toml" --dry-run --out "$tmp/runs" > "$tmp/out"
grep -q "^barrier.vnodes2.n4.vm.h[0-9a-f]* (to run): VSYM_HEAP_SIZE=64M VSYM_TRANSPORT=auto VSYM_VIRTUAL_NODES=2 .*/launch/vsym-softroce .*--nodes 2 -- .*/launch/vsym-run -n 4 " \
    "$tmp/out" || fail "vnodes in the VM: $(grep vnodes "$tmp/out")"
grep -q "^put.verbs.n2.8-32Kx8.vm.h[0-9a-f]* (to run): VSYM_TIMEOUT=300 VSYM_TRANSPORT=verbs .*vsym-softroce .* -- .*vsym-bench put -b 8 -e 32768 -f 8 " \
    "$tmp/out" || fail "verbs in the VM: $(grep put "$tmp/out")"
SLURM_JOB_ID=1 "$sweep" "$src/launch/sweeps/cluster-64node.toml" --dry-run --out "$tmp/runs" > "$tmp/out"
grep -q "^allreduce.auto.n512.N64.8-256Mx4 (to run): VSYM_TRANSPORT=auto srun --mpi=pmix -n 512 --kill-on-bad-exit=1 -N 64 --ntasks-per-node 8 " \
    "$tmp/out" || fail "srun: $(grep n512 "$tmp/out" | head -2)"

# expect NAME LINE FIELD-TEXT: the file $tmp/NAME.toml (written before) must fail with exit 2
# and a message "$tmp/NAME.toml:LINE: <FIELD-TEXT>".
expect() {
    local name=$1 line=$2 text=$3
    "$sweep" "$tmp/$name.toml" --dry-run --out "$tmp/runs" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    [ "$rc" = 2 ] || fail "$name: exit $rc, expected 2 ($(cat "$tmp/err"))"
    grep -qF -- "$tmp/$name.toml:$line: $text" "$tmp/err" ||
        fail "$name: expected '$name.toml:$line: $text', got: $(cat "$tmp/err")"
}

cat > "$tmp/unknown_suite.toml" <<'EOF'
name = "t"
[[matrix]]
suites = ["put", "putt"]
ranks = [2]
transports = ["shm"]
EOF
expect unknown_suite 3 "field 'suites': unknown suite 'putt'"

cat > "$tmp/bad_size.toml" <<'EOF'
[defaults]
ranks = 2

[[point]]
suite = "put"
transport = "shm"
size = "4Q"
EOF
expect bad_size 7 "field 'size': malformed size '4Q'"

cat > "$tmp/bad_range.toml" <<'EOF'
[[matrix]]
suites = ["get"]
ranks = [2]
transports = ["shm"]
sizes = ["8",
         { b = "1M", e = "4K" }]
EOF
expect bad_range 5 "field 'sizes': a size range needs 1 <= b <= e"

cat > "$tmp/missing.toml" <<'EOF'
[[matrix]]
suites = ["put"]
ranks = [2]
transports = ["shm"]

[[matrix]]
suites = ["get"]
transports = ["shm"]
EOF
expect missing 6 "field 'ranks': missing"

cat > "$tmp/wrong_type.toml" <<'EOF'
[[point]]
suite = "barrier"
transport = "shm"
ranks = "two"
EOF
expect wrong_type 4 "field 'ranks': expected an integer, got a string"

cat > "$tmp/bad_bool.toml" <<'EOF'
[[point]]
suite = "barrier"
transport = "verbs"
ranks = 2
vm = "yes"
EOF
expect bad_bool 5 "field 'vm': expected true or false"

cat > "$tmp/unknown_field.toml" <<'EOF'
[[point]]
suite = "barrier"
transport = "shm"
ranks = 2
iteratons = 10
EOF
expect unknown_field 5 "field 'iteratons': unknown field"

cat > "$tmp/bad_transport.toml" <<'EOF'
[[matrix]]
suites = ["put"]
ranks = [2]
transports = ["shm", "tcp"]
EOF
expect bad_transport 4 "field 'transports': unknown transport \"tcp\""

cat > "$tmp/syntax.toml" <<'EOF'
[[matrix]]
suites = ["put"]
ranks = [2
transports = ["shm"]
EOF
expect syntax 4 "TOML syntax error"

cat > "$tmp/point_list.toml" <<'EOF'
[[point]]
suite = "put"
transport = "shm"
ranks = [2, 4]
EOF
expect point_list 4 "field 'ranks': a [[point]] takes one value"

cat > "$tmp/empty.toml" <<'EOF'
name = "nothing"
EOF
expect empty 1 "no [[matrix]] or [[point]] table"

# Several errors are all reported, one line each.
cat > "$tmp/several.toml" <<'EOF'
[[matrix]]
suites = ["put"]
ranks = [0]
transports = ["shm"]
sizes = ["1X"]
EOF
"$sweep" "$tmp/several.toml" --dry-run 2>"$tmp/err" >/dev/null
[ "$(grep -c "several.toml:" "$tmp/err")" = 2 ] || fail "several: $(cat "$tmp/err")"

[ "$fails" = 0 ] || exit 1
echo "sweep_parse: all checks passed"
