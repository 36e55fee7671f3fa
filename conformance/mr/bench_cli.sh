#!/usr/bin/env bash
# Tests of the vsym-bench command line, run by ctest:
#   bench_cli.sh options|json|check|pairs|compare|mainjob|loaded VSYM_RUN VSYM_BENCH
# options  bad options and rank counts: exit 2 and exactly one line on stderr
# json     a short run: every JSON line parses and carries the configuration keys; collective
#          records name the path the library ran
# check    --check passes on clean data and fails (exit 1) when --test-corrupt flips a byte
# pairs    --pairs over 3 ranks measures every pair (3 records per measurement)
# compare  benches/peers/compare --quick --coll prints the ratio tables, the collectives' against
#          Open MPI too (skips without python3)
# mainjob  launch/main-job --quick --out DIR: every step, each capability's table, results/latest
#          untouched
# loaded   memcpy-bench --loaded: a helper copies on every other CPU (recorded per record);
#          a bad option still exits 2
set -u
what="$1"
run="$2"
bench="$3"
work="$(mktemp -d /tmp/vsym-bench-test-XXXXXX)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_usage_error "description" command...: exit 2 and one line from vsym-bench
expect_usage_error() {
  local desc="$1"; shift
  "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  [ $rc -eq 2 ] || fail "$desc: exit $rc, expected 2 (stderr: $(cat "$work/err"))"
  local n
  n=$(grep -c '^vsym-bench: ' "$work/err")
  [ "$n" -eq 1 ] || fail "$desc: $n vsym-bench lines on stderr, expected 1: $(cat "$work/err")"
  # without a launcher the message is the whole of stderr
  if [ "$1" = "$bench" ]; then
    [ "$(wc -l < "$work/err")" -eq 1 ] || fail "$desc: stderr has more than one line"
  fi
  echo "ok: $desc: $(grep '^vsym-bench: ' "$work/err")"
}

# The peer comparison's needs (python3, OSHMEM outside an AddressSanitizer build), else skip;
# sets build and root.
with_references() {
  command -v python3 > /dev/null || { echo "skip: no python3"; exit 77; }
  if [ "${VSYMTEST_SANITIZED:-0}" = 1 ]; then
    echo "skip: AddressSanitizer build: OSHMEM's symmetric heap lies in ASan's shadow memory, the reference cannot run"
    exit 77
  fi
  build="$(dirname "$(dirname "$bench")")"
  root="$(cd "$(dirname "$0")/../.." && pwd)"
}

case "$what" in
options)
  expect_usage_error "unknown suite" "$bench" nosuch
  expect_usage_error "no suite" "$bench"
  expect_usage_error "size 0" "$bench" put -s 0
  expect_usage_error "garbage size" "$bench" put -s 12Q
  expect_usage_error "garbage -b" "$bench" put -b abc -e 1M
  expect_usage_error "-b > -e" "$bench" put -b 1M -e 4K
  expect_usage_error "missing value" "$bench" put -n
  expect_usage_error "unknown option" "$bench" put --frobnicate
  expect_usage_error "bad mode" "$bench" put --mode sideways
  expect_usage_error "bad iteration count" "$bench" put -n 0
  expect_usage_error "bad factor" "$bench" put -f 1
  expect_usage_error "unknown atomic op" "$bench" atomic --op fetch-nand
  expect_usage_error "unknown dtype" "$bench" allreduce --dtype f8
  expect_usage_error "unknown reduction op" "$bench" reduce-scatter --op avg --dtype all
  expect_usage_error "prod of a float dtype" "$bench" allreduce --op prod --dtype bf16
  expect_usage_error "unknown fused op" "$bench" fused --op allreduce_allgather_x --dtype all
  expect_usage_error "--root outside the broadcast" "$bench" allreduce -r 1
  expect_usage_error "-i with -f" "$bench" allreduce -b 1K -e 8K -i 1K -f 4
  expect_usage_error "reshard: a bad --scale" "$bench" reshard --model llama3-8b --from tp=2 \
    --to tp=4 --scale 1/0
  grep -q "^vsym-bench: reshard: --scale: expected 1/N, got '1/0'" "$work/err" ||
    fail "reshard --scale 1/0: $(cat "$work/err")"
  expect_usage_error "-i of too many sizes" "$bench" allreduce -b 1 -e 1M -i 1
  expect_usage_error "--root beyond the ranks" "$run" -n 2 --timeout 60 -- "$bench" broadcast -r 2
  expect_usage_error "bad --send" "$bench" copy --send pinned
  expect_usage_error "--touch outside the collectives" "$bench" put --touch
  expect_usage_error "--consume outside the collectives" "$bench" get --consume
  expect_usage_error "extra argument" "$bench" put get
  expect_usage_error "one rank for a pair suite" "$bench" put -s 8 -n 5
  expect_usage_error "size beyond the symmetric heap" "$bench" put -s 1G
  expect_usage_error "--json into a missing folder" "$bench" put --json "$work/no/such/r.jsonl"
  expect_usage_error "unknown suite, 2 ranks" "$run" -n 2 --timeout 60 -- "$bench" nosuch
  expect_usage_error "size 0, 2 ranks" "$run" -n 2 --timeout 60 -- "$bench" put -s 0
  # A sweep with no size of one element (per rank where the size is split among the ranks)
  expect_usage_error "a size under one element" "$bench" allreduce -s 3
  expect_usage_error "a size under one element per rank, 2 ranks" \
    "$run" -n 2 --timeout 60 -- "$bench" allgather -s 3 --dtype all
  grep -q "allgather: no size of the sweep holds one f16 element per rank (4 bytes with 2 ranks)" \
    "$work/err" || fail "allgather -s 3 at 2 ranks: $(cat "$work/err")"
  # ... and one with some: they are left out, and a line under the table's header says so
  "$run" -n 2 --timeout 60 -- "$bench" alltoall -b 2 -e 32 -n 5 > "$work/out" 2> "$work/err" ||
    fail "alltoall -b 2 -e 32: exit $?: $(cat "$work/err")"
  grep -q "^# sizes under 8 bytes left out (2 of 5): less than one f32 element per rank$" \
    "$work/out" || fail "alltoall -b 2 -e 32: no line for the sizes left out: $(cat "$work/out")"
  rows=$(awk '/^# alltoall .* ranks 2 .*\)$/ {t = 1; next} t && /^ +[0-9]/ {print $1} /^# Avg/ {t = 0}' \
    "$work/out" | tr '\n' ' ')
  [ "$rows" = "8 16 32 " ] || fail "alltoall -b 2 -e 32: rows of sizes $rows, expected 8 16 32"
  echo "ok: sizes under one element per rank left out, and said so"
  # vsym-run's own checks: one line each, before any launcher starts
  for c in "2|-n must be at least 1|-n 0 -- true" "2|--timeout needs a duration|--timeout 5min -n 1 -- true" \
           "127|$work/none: no such program|-n 2 -- $work/none"; do
    IFS='|' read -r want text args <<< "$c"
    # shellcheck disable=SC2086
    "$run" $args > "$work/out" 2> "$work/err"
    rc=$?
    [ "$rc" = "$want" ] && [ "$(wc -l < "$work/err")" = 1 ] && grep -q "^vsym-run: .*$text" "$work/err" ||
      fail "vsym-run $args: exit $rc (expected $want): $(cat "$work/err")"
    echo "ok: vsym-run $args: $(cat "$work/err")"
  done
  "$bench" --help > "$work/out" 2>&1 || fail "--help: exit $?"
  grep -q "put-signal" "$work/out" || fail "--help does not list the suites"
  ;;
json)
  "$run" -n 2 --timeout 120 -- "$bench" put -b 8 -e 4K -f 8 -n 50 --check --json "$work/r.jsonl" \
    > "$work/out" 2> "$work/err" || fail "put run: $(cat "$work/err")"
  "$run" -n 2 --timeout 120 -- "$bench" atomic --op cswap -n 50 --json "$work/r.jsonl" --append \
    > /dev/null 2>> "$work/err" || fail "atomic run: $(cat "$work/err")"
  "$run" -n 2 --timeout 120 -- "$bench" barrier -n 50 --csv --json "$work/r.jsonl" --append \
    > "$work/csv" 2>> "$work/err" || fail "barrier run: $(cat "$work/err")"
  grep -q '^#bytes,#iters,' "$work/csv" || fail "--csv header missing: $(cat "$work/csv")"
  # The warm-up: a tenth of -n, at least 5 (nccl-tests' default); -w as given.
  "$run" -n 2 --timeout 120 -- "$bench" barrier -n 10 --json "$work/w.jsonl" > /dev/null 2>&1 &&
    "$run" -n 2 --timeout 120 -- "$bench" barrier -n 10 -w 2 --json "$work/w.jsonl" --append \
      > /dev/null 2>&1 || fail "barrier -n 10 runs"
  warm=$(python3 -c 'import json,sys; print(" ".join(str(json.loads(l)["warmup"]) for l in open(sys.argv[1])))' "$work/w.jsonl")
  [ "$warm" = "5 5 2 2" ] || fail "warm-up of -n 10 and of -n 10 -w 2: $warm, expected 5 5 2 2"
  # steal_pct: the share of the node's CPU time its hypervisor took since the bench started, in
  # every record once a tick of /proc/stat has passed (a run of 0.3 s at least); 0 where no steal
  # tick passed around the whole run
  head -1 /proc/stat > "$work/stat0"
  "$run" -n 2 --timeout 120 -- "$bench" barrier -s 64 -D 0.3 --json "$work/s.jsonl" \
    > /dev/null 2>&1 || fail "barrier -D 0.3 run"
  head -1 /proc/stat > "$work/stat1"
  python3 - "$work/s.jsonl" "$work/r.jsonl" "$work/stat0" "$work/stat1" <<'EOF' || exit 1
import json, sys
cpu0, cpu1 = (open(f).read().split() for f in sys.argv[3:5])
steal = len(cpu0) >= 9
long = [json.loads(l) for l in open(sys.argv[1])]
if not long or any(("steal_pct" in r) != steal for r in long):
    sys.exit(f"FAIL: steal_pct in {[r.get('steal_pct') for r in long]}, /proc/stat steal: {steal}")
for r in long + [json.loads(l) for l in open(sys.argv[2])]:
    if "steal_pct" in r and not 0 <= r["steal_pct"] <= 100:
        sys.exit(f"FAIL: steal_pct {r['steal_pct']} outside 0-100")
if steal and cpu0[8] == cpu1[8] and any(r["steal_pct"] != 0 for r in long):
    sys.exit(f"FAIL: steal_pct {[r['steal_pct'] for r in long]} where no steal tick passed")
print(f"ok: steal_pct {[round(r.get('steal_pct', -1), 1) for r in long]}")
EOF
  grep -q 't_p99.9\[us\]' "$work/out" || fail "table lacks the p99.9 column"
  # nccl-tests' preamble: the run's options, then where each rank runs
  grep -q '^# vsym-bench put  ranks 2  nodes 1  sizes 8 .. 4K (x8)  iters 50  warmup auto  check 1 ' \
    "$work/out" || fail "no preamble: $(head -3 "$work/out")"
  [ "$(grep -c '^#  Rank  *[01]  Pid  *[0-9][0-9]*  on .*  cpus [0-9]' "$work/out")" = 2 ] ||
    fail "not a preamble line per rank: $(head -4 "$work/out")"
  ls "$work" | grep -q tmp && fail "a temporary file was left"
  python3 - "$work/r.jsonl" <<'EOF' || exit 1
import json, sys
need_rec = ["schema", "tool", "suite", "op", "mode", "size", "date", "iterations", "warmup",
            "batch", "lat_us", "bw_gbs", "mops", "config"]
need_cfg = ["host", "cpu_model", "cores", "governor", "freq_cur_khz", "numa_node", "transport",
            "ranks", "nodes", "commit", "settings", "clock", "nt_threshold",
            "cpus_allowed_by_rank"]
lines = open(sys.argv[1]).read().splitlines()
# put: 4 sizes (8, 64, 512, 4K) x (lat, pingpong, bw) = 12; cswap: 1; barrier: 2
if len(lines) != 15:
    sys.exit(f"FAIL: {len(lines)} records, expected 15")
for i, line in enumerate(lines):
    r = json.loads(line)
    for k in need_rec:
        if k not in r:
            sys.exit(f"FAIL: record {i} lacks {k}: {line[:200]}")
    for k in need_cfg:
        if k not in r["config"]:
            sys.exit(f"FAIL: record {i} config lacks {k}")
    if r["schema"] != 1 or r["config"]["ranks"] != 2:
        sys.exit(f"FAIL: record {i}: schema or ranks")
    by_rank = r["config"]["cpus_allowed_by_rank"]
    if len(by_rank) != 2 or by_rank[0] != r["config"]["cpus_allowed"] or not all(by_rank):
        sys.exit(f"FAIL: record {i}: cpus_allowed_by_rank {by_rank}")
    if "VSYM_HEAP_SIZE" not in r["config"]["settings"]:
        sys.exit("FAIL: settings lack VSYM_HEAP_SIZE")
    nt = r["config"]["nt_threshold"]
    if not isinstance(nt, int) or nt < 0:
        sys.exit(f"FAIL: record {i}: nt_threshold {nt!r} is not a size in bytes")
    if not r["date"].endswith("Z"):
        sys.exit("FAIL: date is not UTC ISO 8601")
    for k in ("min", "median", "avg", "p99", "p99.9", "max"):
        if k not in r["lat_us"]:
            sys.exit(f"FAIL: lat_us lacks {k}")
    if r["suite"] == "put" and r.get("wrong") != 0:
        sys.exit(f"FAIL: put record with --check has wrong={r.get('wrong')}")
    if r["suite"] == "put" and r["config"]["transport"][1] != "shm":
        sys.exit("FAIL: transport to rank 1 is not shm")
    if r["lat_us"]["min"] > r["lat_us"]["median"] or r["lat_us"]["median"] > r["lat_us"]["max"]:
        sys.exit(f"FAIL: record {i}: min <= median <= max violated")
print(f"ok: {len(lines)} records parse and carry the configuration")
EOF
  # The copy suite: its record names the peer and transport of its single-peer put reference,
  # which moves the busiest rank's bytes, and carries the loaded reference (every rank putting
  # at once) with its ratio.
  # With --send symmetric the send buffers (and the put references' sources) are on the heap.
  "$run" -n 2 --timeout 120 -- "$bench" copy --pattern ring -b 64K -e 64K -n 5 --check \
      --json "$work/c.jsonl" > /dev/null 2> "$work/err" || fail "copy run: $(cat "$work/err")"
  "$run" -n 3 --timeout 120 -- "$bench" copy --pattern alltoall --send symmetric -s 64K -n 5 \
      --check --json "$work/c.jsonl" --append > "$work/c_sym.out" 2> "$work/err" ||
      fail "copy --send symmetric run: $(cat "$work/err")"
  grep -q "symmetric send buffers" "$work/c_sym.out" || fail "copy --send symmetric: no title"
  # The loaded reference's ring of puts with signals, with more ranks than cores.
  "$run" -n 4 --timeout 120 -- "$bench" copy --pattern ring -s 64K -n 5 --check \
      --json "$work/c.jsonl" --append > /dev/null 2> "$work/err" ||
      fail "copy run, 4 ranks: $(cat "$work/err")"
  python3 - "$work/c.jsonl" <<'EOF' || exit 1
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
if len(r) != 3:
    sys.exit(f"FAIL: copy: {len(r)} records, expected 3")
s = r[2]
if (s["config"]["ranks"] != 4 or s["wrong"] != 0 or s["put_all_gbs"] <= 0
        or abs(s["copy_over_put_all"] - s["copy"]["bw_per_rank_gbs"] / s["put_all_gbs"]) > 1e-9):
    sys.exit(f"FAIL: copy record, 4 ranks: {json.dumps(s)[:300]}")
s = r[1]
if (s["send_memory"] != "symmetric" or s["wrong"] != 0 or s["pattern"] != "alltoall"
        or s["busiest_rank_bytes"] != 2 * 65536 or s["put_single_peer_gbs"] <= 0):
    sys.exit(f"FAIL: copy record, symmetric send buffers: {json.dumps(s)[:300]}")
r = r[0]
if r["send_memory"] != "ordinary":
    sys.exit(f"FAIL: copy record: send_memory {r['send_memory']}")
if r.get("put_pair") != [0, 1] or r.get("put_transport") != "shm":
    sys.exit(f"FAIL: copy: put reference {r.get('put_pair')} over {r.get('put_transport')}")
if (r["wrong"] != 0 or r["schedule_iterations"] != r["delta"] or r["put_single_peer_gbs"] <= 0
        or r["put_all_gbs"] <= 0 or not 0 < r["schedule_compute_ms"] <= r["schedule_ms"]
        or abs(r["copy_over_put_all"] - r["copy"]["bw_per_rank_gbs"] / r["put_all_gbs"]) > 1e-9
        or r["put_single_peer_bytes"] != r["busiest_rank_bytes"]):
    sys.exit(f"FAIL: copy record: {json.dumps(r)[:300]}")
print("ok: copy record")
EOF
  # Collective records carry the path the library ran, AUTO's or a forced algorithm's, and the
  # table ends with the sizes from which each path ran.
  for c in allreduce allgather reduce-scatter alltoall; do
    "$run" -n 2 --timeout 120 -- "$bench" "$c" -b 8 -e 4K -f 8 -n 5 --json "$work/k.jsonl" \
        --append > "$work/k_$c.out" 2> "$work/err" || fail "$c run: $(cat "$work/err")"
    grep -q '^# path: ' "$work/k_$c.out" || fail "$c: no '# path:' line: $(cat "$work/k_$c.out")"
  done
  "$run" -n 3 --timeout 120 -- "$bench" broadcast --algo rd -b 8 -e 4K -f 8 -n 5 \
      --json "$work/k.jsonl" --append > "$work/k_bc.out" 2> "$work/err" ||
      fail "broadcast run: $(cat "$work/err")"
  grep -q '^# path: 8 tree$' "$work/k_bc.out" || fail "broadcast rd: $(grep path "$work/k_bc.out")"
  "$run" -n 2 --timeout 120 -- "$bench" broadcast -b 64K -e 64K -n 5 --check \
      --json "$work/k.jsonl" --append > "$work/k_bc2.out" 2> "$work/err" ||
      fail "broadcast run: $(cat "$work/err")"
  python3 - "$work/k.jsonl" <<'EOF' || exit 1
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
known = {"oneshot", "oneshot-ll", "symmetric-in-place", "twoshot", "ring", "tree"}
if len(r) < 20 or any(x.get("path") not in known for x in r):
    sys.exit(f"FAIL: collective records' paths: {[(x['suite'], x.get('path')) for x in r]}")
# Symmetric buffers read in place (VSYM_COLL_ZEROCOPY_MIN auto): the all-to-all out of place from
# 2 MiB of src (on AMD CPUs between 2 ranks with a core each 32 KiB), the broadcast never.
a2a = [x for x in r if x["suite"] == "alltoall" and x["mode"] == "out-of-place-symmetric"
       and x["size"] == 4096]
if len(a2a) != 1 or a2a[0]["path"] != "oneshot":
    sys.exit(f"FAIL: all-to-all from symmetric buffers at 4 KiB: {a2a}")
bc = [x for x in r if x["suite"] == "broadcast" and x["algo"] == "rd"]
if not bc or any(x["path"] != "tree" for x in bc):
    sys.exit(f"FAIL: broadcast records: {[(x['algo'], x['path']) for x in bc]}")
# The broadcast into symmetric buffers goes through the scratch as ordinary buffers.
bc = {x["mode"]: x["path"] for x in r if x["suite"] == "broadcast" and x["algo"] == "auto"}
if bc != {"out-of-place": "oneshot", "in-place": "oneshot",
          "out-of-place-symmetric": "oneshot", "in-place-symmetric": "oneshot"}:
    sys.exit(f"FAIL: broadcast at 64 KiB, paths by mode: {bc}")
# The cores' state: the line round trip between ranks 0 and 1 where every rank has a core, else
# between two threads of rank 0 on two CPUs: in every record of a machine of 2 cores or more.
for x in r:
    want = x["config"]["ranks"] >= 2 and x["config"]["cores"] >= 2
    rtt = x.get("core_rtt_ns")
    if want != (rtt is not None) or (rtt is not None and not 0 < rtt < 1e6):
        sys.exit(f"FAIL: {x['suite']} at {x['config']['ranks']} ranks on {x['config']['cores']}"
                 f" cores: core_rtt_ns {rtt}")
print(f"ok: {len(r)} collective records name their path and the cores' state")
EOF
  ;;
check)
  for suite in put get put-nbi get-nbi put-signal put-signal-nbi; do
    "$run" -n 2 --timeout 120 -- "$bench" "$suite" -b 8 -e 64K -f 32 -n 20 --check --quiet \
      > /dev/null 2> "$work/err" || fail "$suite --check on clean data: $(cat "$work/err")"
    "$run" -n 2 --timeout 120 -- "$bench" "$suite" -s 4K -n 20 --check --test-corrupt --quiet \
      > /dev/null 2> "$work/err"
    rc=$?
    [ $rc -ne 0 ] || fail "$suite: --check missed a corrupted byte"
    grep -q "wrong" "$work/err" || fail "$suite: no 'wrong' message: $(cat "$work/err")"
    echo "ok: $suite --check catches a corrupted byte (exit $rc)"
  done
  "$run" -n 2 --timeout 120 -- "$bench" atomic -n 20 --check --quiet > /dev/null 2> "$work/err" ||
    fail "atomic --check: $(cat "$work/err")"
  "$run" -n 2 --timeout 120 -- "$bench" signal -n 20 --check --quiet > /dev/null 2> "$work/err" ||
    fail "signal --check: $(cat "$work/err")"
  # -D: the ping-pong's target answers until told to stop; collectives agree on a count
  for suite in signal put-signal barrier; do
    "$run" -n 2 --timeout 120 -- "$bench" "$suite" -s 64 -D 0.05 --check --quiet \
      > /dev/null 2> "$work/err" || fail "$suite -D: $(cat "$work/err")"
  done
  echo "ok: -D runs end on both ranks"
  # --touch and --consume on the fused suite and the all-reduce: the input stored back before
  # each call, the output read after it, the results still right
  "$run" -n 2 --timeout 120 -- "$bench" fused -b 64 -e 4K -f 8 -n 20 --touch --consume --check \
    --json "$work/ft.jsonl" > "$work/ft.out" 2> "$work/err" ||
    fail "fused --touch --consume --check: $(cat "$work/err")"
  # Under each fused table the modes AUTO ran ("# auto ran: 64 B oneshot, ..."), those of its
  # records ("selected"), size by size
  python3 - "$work/ft.jsonl" "$work/ft.out" <<'EOF' || exit 1
import json, re, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
out = open(sys.argv[2]).read()
tables = re.findall(r"^# fused (\S+) .*?(ordinary|symmetric) buffers.*\n(?:.*\n)*?# auto ran:(.*)$",
                    out, re.M)
want = []
for r in recs:
    if r["mode"] != "auto":
        continue
    key = (r["op"], r["buffers"], json.dumps(r["topology"]))
    if not want or want[-1][0] != key:
        want.append((key, []))
    if not want[-1][1] or want[-1][1][-1] != r["selected"]:
        want[-1][1].append(r["selected"])
got = [((op, buf), [e.split()[-1] for e in line.split(",")]) for op, buf, line in tables]
if len(got) != len(want) or any(g[0] != w[0][:2] or g[1] != w[1] for g, w in zip(got, want)):
    sys.exit(f"FAIL: '# auto ran' lines {got}, records {[(w[0][:2], w[1]) for w in want]}")
print(f"ok: {len(got)} fused tables name the modes AUTO ran")
EOF
  # --dtype all --op all (nccl-tests' -d all -o all): a table and records per dtype and op, prod
  # on the integer dtypes only; --op prod --dtype all: the integer dtypes; --check in each
  "$run" -n 2 --timeout 120 -- "$bench" allreduce -s 64 -n 5 --dtype all --op all --check \
    --json "$work/all.jsonl" > "$work/all.out" 2> "$work/err" ||
    fail "allreduce --dtype all --op all --check: $(cat "$work/err")"
  "$run" -n 3 --timeout 120 -- "$bench" reduce-scatter -s 192 -n 5 --dtype all --op prod --check \
    --json "$work/all.jsonl" --append > /dev/null 2> "$work/err" ||
    fail "reduce-scatter --dtype all --op prod --check: $(cat "$work/err")"
  "$run" -n 2 --timeout 120 -- "$bench" allgather -s 64 -n 5 --dtype all --op all --check \
    --json "$work/all.jsonl" --append > /dev/null 2> "$work/err" ||
    fail "allgather --dtype all --op all --check: $(cat "$work/err")"
  "$run" -n 2 --timeout 120 -- "$bench" fused -s 1K -n 5 --dtype all --check \
    --json "$work/all.jsonl" --append > /dev/null 2> "$work/err" ||
    fail "fused --dtype all --check: $(cat "$work/err")"
  # -i (nccl-tests' stepbytes): sizes lo, lo+i, ... while not above -e
  "$run" -n 2 --timeout 120 -- "$bench" allreduce -b 1K -e 5500 -i 1K -n 5 --check --quiet \
    --json "$work/step.jsonl" > /dev/null 2> "$work/err" || fail "allreduce -i: $(cat "$work/err")"
  sizes=$(python3 -c 'import json,sys; print(sorted({json.loads(l)["size"] for l in open(sys.argv[1])}))' "$work/step.jsonl")
  [ "$sizes" = "[1024, 2048, 3072, 4096, 5120]" ] || fail "allreduce -b 1K -e 5500 -i 1K: sizes $sizes"
  # -r/--root: the broadcast from rank 2 of 3, checked (a flipped byte of the root's src found)
  "$run" -n 3 --timeout 120 -- "$bench" broadcast -r 2 -b 8 -e 64K -f 64 -n 5 --check \
    --json "$work/all.jsonl" --append > /dev/null 2> "$work/err" ||
    fail "broadcast -r 2 --check: $(cat "$work/err")"
  "$run" -n 3 --timeout 120 -- "$bench" broadcast -r 2 -s 4K -n 5 --check --test-corrupt \
    --quiet > /dev/null 2> "$work/err"
  rc=$?
  [ $rc -eq 1 ] && grep -q "wrong" "$work/err" ||
    fail "broadcast -r 2 --test-corrupt: exit $rc: $(cat "$work/err")"
  python3 - "$work/all.jsonl" "$work/all.out" <<'EOF' || exit 1
import collections, json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
got = collections.Counter((r["suite"], r["dtype"], r.get("redop")) for r in recs
                          if r["suite"] != "fused")
ints, floats = ["i32", "i64", "u64"], ["f32", "f64", "f16", "bf16"]
want = collections.Counter()
for d in floats + ints:
    for o in ["sum", "min", "max"] + (["prod"] if d in ints else []):
        want[("allreduce", d, o)] = 4  # out of place and in place, ordinary and symmetric
    if d in ints:
        want[("reduce-scatter", d, "prod")] = 4
    want[("allgather", d, None)] = 4
want[("broadcast", "f32", None)] = 12  # 3 sizes
if any(r.get("root") != 2 for r in recs if r["suite"] == "broadcast"):
    sys.exit(f"FAIL: broadcast -r 2: roots {[r.get('root') for r in recs if r['suite'] == 'broadcast']}")
fused = collections.Counter(r["dtype"] for r in recs if r["suite"] == "fused")
if sorted(fused) != sorted(floats + ints) or len(set(fused.values())) != 1:
    sys.exit(f"FAIL: fused --dtype all: records by dtype {dict(fused)}")
bad = [r for r in recs if r.get("wrong") != 0]
if got != want or bad:
    sys.exit(f"FAIL: --dtype all --op all: records {sorted(got.items())}, {len(bad)} wrong")
tables = [l for l in open(sys.argv[2]) if l.startswith("# allreduce")]
if len(tables) != 2 * 24:
    sys.exit(f"FAIL: allreduce --dtype all --op all printed {len(tables)} tables, expected 48")
# nccl-tests' closing lines under each table: "# Out of bounds values : 0 OK", and the mean of
# the rows' out-of-place and in-place busbw
text = open(sys.argv[2]).read()
for t in text.split("\n\n"):
    lines = [l for l in t.splitlines() if l.strip()]
    if not lines or not lines[0].startswith("# allreduce"):
        continue
    bw = [float(v) for l in lines if l.split()[0].isdigit() for v in l.split()[4:9:4]]
    summary = [l for l in lines if l.startswith("# Out of bounds") or l.startswith("# Avg bus")]
    if (len(summary) != 2 or summary[0] != "# Out of bounds values : 0 OK" or not bw
            or abs(float(summary[1].split(":")[1]) - sum(bw) / len(bw)) > 0.0055):  # the rows print 2 decimals
        sys.exit(f"FAIL: a table's closing lines {summary}, busbw {bw}: {lines[0]}")
print(f"ok: --dtype all --op all: {len(recs)} records, 24 all-reduce pairs, #wrong 0")
EOF
  "$run" -n 2 --timeout 120 -- "$bench" allreduce -s 64 -n 5 --dtype all --op all --check \
    --test-corrupt --quiet > /dev/null 2> "$work/err"
  rc=$?
  [ $rc -eq 1 ] && grep -q "wrong" "$work/err" ||
    fail "allreduce --dtype all --op all --test-corrupt: exit $rc: $(cat "$work/err")"
  "$run" -n 2 --timeout 120 -- "$bench" allreduce -b 4K -e 2M -f 512 -n 20 --touch --consume \
    --check --quiet --json "$work/ft.jsonl" --append > /dev/null 2> "$work/err" ||
    fail "allreduce --touch --consume --check: $(cat "$work/err")"
  python3 - "$work/ft.jsonl" <<'EOF' || exit 1
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
bad = [r for r in recs if r.get("touch") is not True or r.get("consume") is not True
       or r.get("wrong") != 0]
fused = [r for r in recs if r["suite"] == "fused"]
kinds = {r["buffers"] for r in fused}
# The all-reduce of symmetric buffers (the library's rule, VSYM_COLL_ZEROCOPY_MIN auto): between
# 2 ranks in place from 4 KiB (on AMD CPUs 16 KiB), out of place from 1 MiB (on AMD CPUs 16 KiB
# with a core each where the cores lie near, by the team's last round trip over 250 ns, and 8 MiB
# where they lie far; 4 MiB where the ranks share one): else through the scratch as ordinary
# buffers.
paths = {(r["mode"], r["size"]): r["path"] for r in recs if r["suite"] == "allreduce"}
far = {r["mode"]: r["team_rtt_ns"] > 250 for r in recs
       if r["suite"] == "allreduce" and r["size"] == 2097152}
amd = any("AMD" in r["config"].get("cpu_model", "") for r in recs)
shared = any(r["config"]["ranks"] > r["config"]["cores"] for r in recs)
scratch = amd and (shared or far.get("out-of-place-symmetric"))
want = {("out-of-place-symmetric", 4096): "oneshot",
        ("out-of-place-symmetric", 2097152): paths.get(("out-of-place", 2097152))
        if scratch else "symmetric-in-place",
        ("in-place-symmetric", 4096): "oneshot" if amd else "symmetric-in-place"}
if not fused or bad or kinds != {"ordinary", "symmetric"} or \
        any(paths.get(k) != v for k, v in want.items()):
    sys.exit(f"FAIL: --touch --consume: {len(recs)} records ({len(fused)} fused), {len(bad)} "
             f"untouched, unread or wrong, buffers {sorted(kinds)}, all-reduce paths {paths}, "
             f"cores far at 2 MiB {far}")
print(f"ok: fused and allreduce --touch --consume --check: {len(recs)} records, #wrong 0")
EOF
  ;;
pairs)
  "$run" -n 3 --timeout 200 -- "$bench" put -s 64 -n 20 --pairs --mode bw --check \
    --json "$work/p.jsonl" > /dev/null 2> "$work/err" || fail "--pairs: $(cat "$work/err")"
  python3 - "$work/p.jsonl" <<'EOF' || exit 1
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
pairs = sorted(tuple(r["pair"]) for r in recs if r["mode"] != "pairs")
if pairs != [(0, 1), (0, 2), (1, 2)]:
    sys.exit(f"FAIL: pairs {pairs}")
summary = [r for r in recs if r["mode"] == "pairs"]
if len(summary) != 1 or summary[0]["pairs"] != 3 or "outliers" not in summary[0]:
    sys.exit(f"FAIL: pairs summary {summary}")
print("ok: every pair measured, one outlier summary")
EOF
  ;;
compare)
  with_references
  "$root/benches/peers/compare" --build "$build" --quick -b 8 -e 1M -f 32 --coll \
    --coll-max 512K --bound-min 256K --out "$work/c" > "$work/out" 2> "$work/err" ||
    fail "compare: $(cat "$work/out" "$work/err")"
  cat "$work/out"
  grep -q "vsym/OSHMEM" "$work/out" || fail "no vsym/OSHMEM column"
  grep -q "vsym/memcpy" "$work/out" || fail "no vsym/memcpy column"
  [ -s "$work/c/compare.jsonl" ] || fail "no compare.jsonl"
  # The collectives against Open MPI: a row per size (8 B, 256 B, 8 KiB, 256 KiB) in each table,
  # and the all-reduce's at 512 KiB too (--coll-max, which the sweep by 32 passes by), every time
  # and ratio a number; the all-reduce's bound fractions from 256 KiB, measured back to back in a
  # table of their own; then the same tables with src rewritten before each call
  # (--touch: 32 KiB and 512 KiB, no bound); then the all-reduce's tables and bound at 4 ranks
  # (--coll-ranks' default) and the fused pairs against Open MPI's sequence; no wrong value
  # recorded.
  python3 - "$work/out" "$work/c/compare.jsonl" <<'EOF' || exit 1
import json, re, sys
text = open(sys.argv[1]).read()
tables = re.findall(r"^## (\S+) (out-of-place|in-place), 2 ranks(.*)\n(.*)\n((?:\s+\d+ .*\n)+)",
                    text, re.M)
names = [(t[0], t[1], "--touch" in t[2]) for t in tables]
kinds = [("allreduce", "out-of-place"), ("allreduce", "in-place"), ("allgather", "out-of-place"),
         ("reduce-scatter", "out-of-place"), ("broadcast", "in-place"),
         ("alltoall", "out-of-place")]
want = [k + (False,) for k in kinds] + [k + (True,) for k in kinds]
if names != want:
    sys.exit(f"FAIL: collective tables {names}, expected {want}")
for suite, mode, title, hdr, rows in tables:
    touch = "--touch" in title
    cols = hdr.split()
    rows = [r.split() for r in rows.strip().split("\n")]
    sizes = [32768, 524288] if touch else [8, 256, 8192, 262144] + (
        [524288] if suite == "allreduce" else [])
    if [int(r[0]) for r in rows] != sizes:
        sys.exit(f"FAIL: {suite} {mode} {title}: sizes {[r[0] for r in rows]}, expected {sizes}")
    if "vsym/MPI" not in cols or "bound" in cols:
        sys.exit(f"FAIL: {suite} {mode} {title}: columns {cols}")
    if cols[-1] != "cores":
        sys.exit(f"FAIL: {suite} {mode} {title}: columns {cols}, the last not cores")
    for r in rows:
        if len(r) != len(cols) or any(float(x) < 0 for x in r[:-1]) or \
                0 in map(float, r[1:4]) or not re.fullmatch(r"[fn]{3}", r[-1]):
            sys.exit(f"FAIL: {suite} {mode}: row {r} (columns {cols})")
many = re.findall(r"^## allreduce (out-of-place|in-place), 4 ranks, f32: .*\n(.*)\n"
                  r"((?:\s+\d+ .*\n)+)", text, re.M)
if [m[0] for m in many] != ["out-of-place", "in-place"]:
    sys.exit(f"FAIL: the 4-rank all-reduce tables {[m[0] for m in many]}")
for mode, hdr, rows in many:
    cols, rows = hdr.split(), [r.split() for r in rows.strip().split("\n")]
    if [int(r[0]) for r in rows] != [8, 256, 8192, 262144, 524288] or any(
            len(r) != len(cols) or 0 in map(float, r[1:4]) or not re.fullmatch(r"[fn]{3}", r[-1])
            for r in rows):
        sys.exit(f"FAIL: the 4-rank all-reduce {mode}: rows {rows} (columns {cols})")
for n in (2, 4):
    bound = re.findall(rf"^## allreduce, {n} ranks, f32: fraction of the memory-bandwidth bound, "
                       r"each size measured back to back\n(?:#.*\n)+(.*)\n((?:\s+\d+ .*\n)+)",
                       text, re.M)
    if len(bound) != 1:
        sys.exit(f"FAIL: {len(bound)} tables of the all-reduce's bound at {n} ranks, 1 expected")
    cols, rows = bound[0][0].split(), [r.split() for r in bound[0][1].strip().split("\n")]
    if [(r[0], r[1]) for r in rows] != [(str(s), m) for s in (262144, 524288)
                                        for m in ("out-of-place", "in-place")] or \
            any(len(r) != len(cols) or not all(float(x) > 0 for x in r[2:-1]) or
                not re.fullmatch(r"[fn]{2}", r[-1]) for r in rows):
        sys.exit(f"FAIL: the bound's rows at {n} ranks {rows} (columns {cols})")
recs = [json.loads(l) for l in open(sys.argv[2])]
# Both programs time buffers they have written (benches/inputs.h), never the kernel's zero page.
colls = ("allreduce", "allgather", "reduce-scatter", "broadcast", "alltoall", "fused")
unfilled = [(r["tool"], r["suite"], r["mode"], r["size"]) for r in recs
            if r["tool"] in ("vsym-bench", "mpi-coll") and r["suite"] in colls and
            r.get("input_byte") != 60]
if unfilled or not any(r["tool"] == "mpi-coll" for r in recs):
    sys.exit(f"FAIL: collective records without input_byte 60: {unfilled[:4]}")
bd = [r for r in recs if r.get("pass") == "bound"]
recs = [r for r in recs if r.get("pass") != "bound"]
for n in (2, 4):
    b = [r for r in bd if r.get("np") == n]
    if sorted((r["tool"], r.get("copy", "-")) for r in b if r["op"] in ("memcpy", "allreduce")) \
            != [("memcpy-bench", "alone"), ("memcpy-bench", "alone"), ("memcpy-bench", "loaded"),
                ("memcpy-bench", "loaded")] + [("vsym-bench", "-")] * 8 or \
            any(r.get("wrong", 0) != 0 or r["size"] not in (262144, 524288) for r in b) or \
            any(r["config"]["ranks"] != n for r in b if r["tool"] == "vsym-bench"):
        sys.exit(f"FAIL: the bound's records at {n} ranks "
                 f"{[(r['tool'], r['op'], r['mode']) for r in b]}")
# The fused pairs at 4 ranks against Open MPI's TP-then-DP sequence, input unchanged and
# rewritten: a table per op and way (TP 2 x DP 2), rows 64 B-32 KiB, every time a number;
# vsym's records #wrong 0, each program's touched ones said so.
fused_t = re.findall(r"^## fused ([a-z_]+), 4 ranks, TP 2 x DP 2, f32(.*)\n#.*\n(.*)\n"
                     r"((?:\s+\d+ .*\n)+)", text, re.M)
if [(t[0], "--touch" in t[1]) for t in fused_t] != [
        ("allreduce_allgather", False), ("reducescatter_allreduce", False),
        ("allreduce_allgather", True), ("reducescatter_allreduce", True)]:
    sys.exit(f"FAIL: fused tables {[(t[0], t[1]) for t in fused_t]}")
for op, title, hdr, rows in fused_t:
    cols, rows = hdr.split(), [r.split() for r in rows.strip().split("\n")]
    if [int(r[0]) for r in rows] != [64, 512, 4096, 32768] or "auto/MPI" not in cols or any(
            len(r) != len(cols) or not all(re.fullmatch(r"\d+\.\d+", x) and float(x) > 0
                                           for x in r[1:-1]) for r in rows):
        sys.exit(f"FAIL: fused {op}{title}: rows {rows} (columns {cols})")
fv = [r for r in recs if r["suite"] == "fused" and r["tool"] == "vsym-bench"]
fm = [r for r in recs if r["suite"] == "fused" and r["tool"] == "mpi-coll"]
if not fv or any(r["wrong"] != 0 or r["config"]["ranks"] != 4 or r.get("input_byte") != 60
                 for r in fv) or \
        len(fm) != 16 or sum(r.get("touch") is True for r in fm) != 8 or \
        sum(r.get("touch") is True for r in fv) * 2 != len(fv) or \
        any(r.get("touch") != r.get("consume") for r in fv + fm):
    sys.exit(f"FAIL: fused records: vsym {len(fv)}, Open MPI {len(fm)} (16 expected), half of "
             "each touched and read (--consume), #wrong 0")
recs = [r for r in recs if r["suite"] != "fused"]
ar4 = [r for r in recs if r.get("tool") == "vsym-bench" and r["config"].get("ranks") == 4]
mpi4 = [r for r in recs if r.get("tool") == "mpi-coll" and r["config"].get("ranks") == 4]
if len(ar4) != 20 or any(r["suite"] != "allreduce" or r["wrong"] != 0 for r in ar4) or \
        len(mpi4) != 10 or any(r["suite"] != "allreduce" for r in mpi4):
    sys.exit(f"FAIL: {len(ar4)} vsym records at 4 ranks (20 all-reduces, #wrong 0), "
             f"{len(mpi4)} mpi-coll's (10 all-reduces)")
recs = [r for r in recs if r["config"].get("ranks") != 4]
ar = [r for r in recs if r.get("tool") == "vsym-bench" and r["suite"] == "allreduce"]
art = [r for r in ar if r.get("touch") is True]
mpi = [r for r in recs if r.get("tool") == "mpi-coll"]
mpit = [r for r in mpi if r.get("touch") is True]
if len(ar) != 28 or len(art) != 8 or any(r["wrong"] != 0 for r in ar) or not mpit or \
        len(mpit) == len(mpi) or any(r.get("consume") is not True for r in art + mpit):
    sys.exit(f"FAIL: {len(ar)} vsym all-reduce records ({len(art)} touched; 28 and 8 expected, "
             f"#wrong 0), {len(mpi)} mpi-coll ({len(mpit)} touched)")
# Each collective's tables say in which state of the cores each program's rows ran.
for who in ("vsym", "Open MPI"):
    n_state = len(re.findall(rf"^# line round trip between two cores \({who}\): \d+-\d+ ns; "
                             r"\d+ of \d+ rows far", text, re.M))
    if n_state != 11:  # a line per suite (5) and pass (2), and the 4-rank all-reduce's
        sys.exit(f"FAIL: {n_state} lines of the cores' state for {who}, 11 expected")
# mpi-coll's records name the cores' state as vsym-bench's do (2 ranks: between ranks 0 and 1).
bad = [(r["suite"], r["size"], r.get("core_rtt_ns")) for r in mpi
       if r["config"]["cores"] >= 2 and not 0 < (r.get("core_rtt_ns") or 0) < 1e6]
if bad:
    sys.exit(f"FAIL: mpi-coll records without the cores' round trip: {bad[:4]}")
print(f"ok: {len(tables)} collective tables against Open MPI, {len(mpi)} mpi-coll records")
EOF
  ;;
mainjob)
  # The README's main job, quick, into a folder of the test: every step exits 0, each
  # capability's table is there, the collectives' against Open MPI too, results/latest untouched.
  with_references
  latest_before="$(ls -ld --time-style=full-iso "$root/results/latest" 2> /dev/null)"
  "$root/launch/main-job" --build "$build" --quick --out "$work/mj" > "$work/out" 2>&1 ||
    fail "main-job: exit $?: $(tail -n 20 "$work/out")"
  [ "$(ls -ld --time-style=full-iso "$root/results/latest" 2> /dev/null)" = "$latest_before" ] ||
    fail "main-job --out changed results/latest"
  ! grep -q "FAILED" "$work/out" || fail "main-job: $(grep FAILED "$work/out")"
  python3 - "$work/mj" <<'EOF' || exit 1
import json, os, sys
d = sys.argv[1]
suites = {json.loads(l)["suite"] for l in open(os.path.join(d, "vsym.jsonl"))}
want = {"put", "get", "atomic", "signal", "put-signal", "barrier", "copy", "fused"}
if not want <= suites:
    sys.exit(f"FAIL: suites {sorted(suites)}, missing {sorted(want - suites)}")
table = open(os.path.join(d, "table.txt")).read()
for t in ("copy --pattern alltoall", "copy --pattern ring", "# fused",
          "# fused allreduce_allgather  local_tp 2 local_dp 2",
          "# fused reducescatter_allreduce  local_tp 2 local_dp 2",
          "local_tp 2 local_dp 2 inter_tp 1 inter_dp 1  dtype f16  symmetric buffers, input "
          "rewritten before each call (--touch)"):
    if t not in table:
        sys.exit(f"FAIL: no '{t}' table in table.txt")
# The fused steps tuned first: the run's autotune tables, 2 and 4 ranks, and AUTO's rows name
# the mode the table gave them.
tune = open(os.path.join(d, "autotune.txt")).read().splitlines()
keys = [l for l in tune if l.startswith("key ")]
for w in ("world=2 ", "world=4 "):
    if not any(w in k for k in keys):
        sys.exit(f"FAIL: autotune.txt has no table for {w.strip()}: {keys}")
auto = [json.loads(l) for l in open(os.path.join(d, "vsym.jsonl"))]
auto = [r for r in auto if r["suite"] == "fused" and r["mode"] == "auto"]
touched = [r for r in auto if r.get("touch") is True and r.get("consume") is True and
           r["config"]["ranks"] == 4]
if not touched:
    sys.exit("FAIL: no fused AUTO records with --touch --consume at 4 ranks")
if not auto or any(r.get("selected") in (None, "auto") or r["config"]["settings"]
                   ["VSYM_AUTOTUNE_FILE"] != os.path.join(d, "autotune.txt") for r in auto):
    sys.exit("FAIL: fused AUTO records without the autotune file or the selected mode")
cmp = open(os.path.join(d, "compare", "compare.txt")).read()
for t in ("vsym/OSHMEM", "## allreduce out-of-place, 2 ranks", "## alltoall out-of-place, 2 ranks"):
    if t not in cmp:
        sys.exit(f"FAIL: no '{t}' in compare.txt")
print(f"ok: main job: {len(suites)} suites, the peer and Open MPI tables")
EOF
  ;;
loaded)
  mb="$(dirname "$bench")/peers/memcpy-bench"
  cpus=$(nproc)
  [ "$cpus" -gt 1 ] || { echo "skip: one CPU, no other CPU to load"; exit 77; }
  "$mb" -b 64K -e 256K -f 4 --only memcpy --loaded --json "$work/l.jsonl" > "$work/out" 2>&1 \
    || fail "memcpy-bench --loaded: $(cat "$work/out")"
  python3 - "$work/l.jsonl" "$((cpus - 1))" <<'EOF' || exit 1
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
if [r["size"] for r in recs] != [65536, 262144]:
    sys.exit(f"FAIL: sizes {[r['size'] for r in recs]}")
for r in recs:
    if r["config"].get("loaded_cpus") != int(sys.argv[2]) or r["lat_us"]["median"] <= 0:
        sys.exit(f"FAIL: record {r}")
print(f"ok: {len(recs)} records, each with loaded_cpus {sys.argv[2]}")
EOF
  "$mb" --loaded 1 > "$work/out" 2> "$work/err"
  [ $? -eq 2 ] && grep -q "unexpected argument 1" "$work/err" || fail "--loaded 1: $(cat "$work/err")"
  echo "ok: --loaded takes no value"
  "$mb" --only memcopy > "$work/out" 2> "$work/err"
  [ $? -eq 2 ] && grep -q "unknown --only 'memcopy' (memcpy, memcpy-nt" "$work/err" ||
    fail "--only memcopy: $(cat "$work/err")"
  echo "ok: an unknown --only is an error naming the copies"
  ;;
*)
  fail "unknown test '$what'"
  ;;
esac
exit 0
