#!/usr/bin/python3
"""Test helpers for the sweep and report tools (conformance/unit/sweep_*.sh).

  sweep_fixture.py run DIR           a hand-made run folder (run.json, points/*.jsonl) with
                                     records of every kind the report draws
  sweep_fixture.py slower FILE ID F  multiply the figure of the record with "_id" ID by F
                                     (latency up, bandwidth down: F=1.2 is 20% slower)
  sweep_fixture.py bench ARGS...     a stand-in for vsym-bench: rank 0 writes schema-1 records
                                     to --json FILE. SWEEP_FAKE_LOG: a file to which each
                                     call appends its suite; SWEEP_FAKE_SLOW / SWEEP_FAKE_FAIL:
                                     a suite that sleeps 60 s / exits 1.
Values are deterministic, so tests can assert on them."""

import json
import os
import sys
import time

CONFIG = {"host": "fixture", "hosts": ["fixture", "fixture"], "cpu_model": "Test CPU @ 1GHz",
          "cores": 2, "cpus_allowed": "0-1", "governor": "unknown", "freq_cur_khz": "unknown",
          "freq_max_khz": "unknown", "numa_node": 0, "numa_nodes": 1, "kernel": "6.1.0",
          "clock": "CLOCK_MONOTONIC_RAW", "clock_cost_ns": 20.0, "ranks": 2, "nodes": 1,
          "transport": ["self", "shm"], "transport_matrix": [["self", "shm"], ["shm", "self"]],
          "commit": "fixture", "version": "0.1.0",
          "settings": {"VSYM_TRANSPORT": "shm", "VSYM_LOG_LEVEL": "warn"},
          "settings_from_env": ["VSYM_TRANSPORT"], "command": "fixture",
          "iterations_option": 0, "warmup_option": -1, "duration_s": 0.0, "window_option": 64}
SIZES = [8, 64, 512, 4096, 32768, 262144, 2097152]


def base(suite, op, mode, size, rid, **kw):
    r = {"schema": 1, "tool": "vsym-bench", "suite": suite, "op": op, "mode": mode,
         "size": size, "date": "2026-11-22T00:00:00Z", "check": True, "iterations": 1000,
         "warmup": 100, "batch": 1, "window": 64, "seconds": 0.01, "config": CONFIG,
         "_id": rid}
    r.update(kw)
    return r


def lat(size, scale, rep=1):
    m = (0.5 + size / 8e3) * scale * (1 + 0.02 * (rep - 1))
    return {"min": m * 0.9, "median": m, "avg": m * 1.05, "p99": m * 1.5, "p99.9": m * 2,
            "max": m * 3}


def run_records():
    pts = {}
    for rep in (1, 2):
        pid = "put.shm.n2" + (f".r{rep}" if rep > 1 else "")
        recs = []
        for s in SIZES:
            recs.append(base("put", "put", "lat", s, f"put-lat-{s}-r{rep}", pair=[0, 1],
                             transport="shm", lat_us=lat(s, 1.0, rep), mops=1.0, wrong=0))
            recs.append(base("put", "pingpong", "lat", s, f"put-pp-{s}-r{rep}", pair=[0, 1],
                             transport="shm", lat_us=lat(s, 2.0, rep), mops=0.5, wrong=0))
            bw = s / (0.5 + s / 8e3) / 1e3 * (1 - 0.02 * (rep - 1))
            recs.append(base("put", "put", "bw", s, f"put-bw-{s}-r{rep}", pair=[0, 1],
                             transport="shm", lat_us=lat(s, 0.5), bw_gbs={"avg": bw,
                             "peak": bw * 1.1}, mops=2.0, wrong=0))
        pts[pid] = recs
    pts["atomic.shm.n2"] = [
        base("atomic", op, "lat", 4 if op.endswith("32") else 8, f"atomic-{op}", pair=[0, 1],
             transport="shm", bits=32 if op.endswith("32") else 64,
             lat_us=lat(8, 0.1 + 0.01 * i), mops=10.0)
        for i, op in enumerate(("fetch-add", "add", "cswap", "swap", "fetch-add32"))]
    pts["barrier.shm.n2"] = [base("barrier", op, "lat", 0, f"barrier-{op}",
                                  lat_us=lat(0, 10 + i))
                             for i, op in enumerate(("team-barrier", "signal-barrier"))]
    coll = []
    for s in SIZES[2:]:
        for ip in ("out-of-place", "in-place"):
            t = 5 + s / 2e3
            coll.append(base("allreduce", "allreduce", ip, s, f"allreduce-{ip}-{s}",
                             dtype="float", redop="sum", algo="auto", count=s // 4,
                             time_us=t, algbw_gbs=s / t / 1e3, busbw_gbs=s / t / 1e3,
                             busbw_factor=1.0, wrong=0))
    pts["allreduce.shm.n2"] = coll
    pts["reshard.shm.n2"] = [base("reshard", "reshard", "bw", 1 << 20 << i, f"reshard-{i}",
                                  model="tiny", **{"from": "tp2", "to": f"tp1pp{i + 1}"},
                                  bw_gbs=2.0 + i, refit_ms_median=1.0, plan_ms=0.1, wrong=0)
                             for i in range(3)]
    return pts


def write_run(d):
    os.makedirs(os.path.join(d, "points"), exist_ok=True)
    pts = run_records()
    meta = {"schema": 1, "run_id": os.path.basename(d.rstrip("/")), "sweep_name": "fixture",
            "description": "hand-made records for the report tests", "host": "fixture",
            "created": "2026-11-22T00:00:00Z", "updated": "2026-11-22T00:00:00Z",
            "commit": "fixture", "status": "complete", "total": len(pts), "done": len(pts),
            "failed": 0, "launcher": "vsym-run",
            "invocations": [{"command": "launch/vsym-sweep fixture.toml"}],
            "points": {p: {"status": "done", "records": len(r), "seconds": 1.0,
                           "command": f"vsym-bench {p.split('.')[0]}"} for p, r in pts.items()}}
    for pid, recs in pts.items():
        with open(os.path.join(d, "points", pid + ".jsonl"), "w") as f:
            for r in recs:
                f.write(json.dumps(r) + "\n")
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump(meta, f, indent=1)


def slower(path, rid, factor):
    lines = open(path).read().splitlines()
    hit = 0
    for i, line in enumerate(lines):
        r = json.loads(line)
        if r.get("_id") != rid:
            continue
        hit += 1
        if r["mode"] == "lat":
            for k in r["lat_us"]:
                r["lat_us"][k] *= factor
        elif isinstance(r.get("bw_gbs"), dict):
            for k in r["bw_gbs"]:
                r["bw_gbs"][k] /= factor
        elif "busbw_gbs" in r:
            r["busbw_gbs"] /= factor
            r["algbw_gbs"] /= factor
            r["time_us"] *= factor
        else:
            r["bw_gbs"] /= factor
        lines[i] = json.dumps(r)
    if hit != 1:
        sys.exit(f"sweep_fixture: {hit} records with _id {rid} in {path}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def bench(argv):
    suite = argv[0]
    rank = int(os.environ.get("OMPI_COMM_WORLD_RANK", os.environ.get("PMIX_RANK", "0")))
    json_path = argv[argv.index("--json") + 1]
    if rank == 0 and os.environ.get("SWEEP_FAKE_LOG"):
        with open(os.environ["SWEEP_FAKE_LOG"], "a") as f:
            f.write(suite + " " + os.environ.get("VSYM_TRANSPORT", "-") + "\n")
    if os.environ.get("SWEEP_FAKE_SLOW") == suite:
        time.sleep(60)
    # Only rank 0 fails, after logging: were another rank to fail first, mpirun could stop
    # rank 0 before it logged its call.
    if os.environ.get("SWEEP_FAKE_FAIL") == suite and rank == 0:
        print(f"fake vsym-bench: {suite} fails on purpose", file=sys.stderr)
        sys.exit(1)
    if rank != 0:
        return
    sizes = [0]
    if "-s" in argv:
        sizes = [int(argv[argv.index("-s") + 1])]
    elif "-b" in argv:
        b, e, f = (int(argv[argv.index(o) + 1]) for o in ("-b", "-e", "-f"))
        sizes = []
        while b <= e:
            sizes.append(b)
            b *= f
    with open(json_path, "w") as f:
        for s in sizes:
            r = base(suite, suite, "lat", s, f"{suite}-{s}", lat_us=lat(s, 1.0))
            del r["_id"]
            f.write(json.dumps(r) + "\n")
    print(f"fake vsym-bench {suite}: {len(sizes)} records")


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "run" and len(sys.argv) == 3:
        write_run(sys.argv[2])
    elif cmd == "slower" and len(sys.argv) == 5:
        slower(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    elif cmd == "bench":
        bench(sys.argv[2:])
    else:
        sys.exit(__doc__)
