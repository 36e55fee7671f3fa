#!/usr/bin/env python3
"""Tables of stop 45's device runs (run_s45.sh, run_s45c.sh): ab_table.py DIR... (the unpacked
run folders). All-reduce and broadcast: the median time per call over the rounds per build, each
build's time / old's, Open MPI's average / the last build's. Fused pairs: per split, buffers and
size, baseline / one-shot and AUTO / baseline within each build, one-shot time / old's."""
import glob
import json
import os
import statistics as st
import sys

ORDER = ["old", "rr", "new", "reprr", "rep", "pf1", "ll"]


def med(xs):
    return st.median(xs) if xs else float("nan")


def load(prefix):
    out = {}
    for d in sys.argv[1:]:
        for f in sorted(glob.glob(os.path.join(d, prefix + ".*.jsonl"))):
            build = os.path.basename(f).split(".")[1]
            for line in open(f):
                yield build, json.loads(line)


def mpi_times(prefix):
    out = {}
    for d in sys.argv[1:]:
        for f in glob.glob(os.path.join(d, prefix + ".np*.jsonl")):
            np = int(os.path.basename(f).split(".")[1][2:].split("r")[0])
            for line in open(f):
                j = json.loads(line)
                out.setdefault((np, j["mode"], j["size"]), []).append(j["lat_us"]["avg"])
    return out


def plain(prefix, mpiprefix, title):
    t = {}
    for b, j in load(prefix):
        t.setdefault((j["config"]["ranks"], j["mode"], j["size"]), {}).setdefault(b, []).append(
            j["time_us"])
    if not t:
        return
    mpi = mpi_times(mpiprefix)
    builds = [b for b in ORDER if any(b in v for v in t.values())]
    last = builds[-1]
    print(f"## {title}: time per call (us, medians over rounds), build / old, Open MPI / {last}")
    print(f"{'ranks':>5} {'mode':<24} {'size':>6} " + " ".join(f"{b:>7}" for b in builds) + " " +
          " ".join(f"{b + '/o':>8}" for b in builds[1:]) + f" {'MPI':>7} {'MPI/' + last:>9} {'n':>3}")
    for k in sorted(t, key=lambda k: (-k[0], k[1], k[2])):
        m = {b: med(t[k].get(b, [])) for b in builds}
        x = med(mpi.get(k, []))
        print(f"{k[0]:>5} {k[1]:<24} {k[2]:>6} " + " ".join(f"{m[b]:7.2f}" for b in builds) + " " +
              " ".join(f"{m[b] / m['old']:8.2f}" for b in builds[1:]) +
              f" {x:7.2f} {x / m[last]:9.2f} {len(t[k].get(last, [])):>3}")
    print()


plain("ar", "mpi", "all-reduce f32")
plain("bc", "mpibc", "broadcast")
plain("ag", "mpiallgather", "all-gather f32")
plain("rs", "mpireduce-scatter", "reduce-scatter f32")
plain("aa", "mpialltoall", "all-to-all f32")

fu = {}
for b, j in load("fu"):
    t = j["topology"]
    split = f"{t['local_tp'] * t['inter_tp']}x{t['local_dp'] * t['inter_dp']}"
    key = (j["config"]["ranks"], j["op"], split, j["buffers"], j["size"])
    fu.setdefault(key, {}).setdefault((b, j["mode"]), []).append(j["time_us"])
builds = [b for b in ORDER if any((b, "oneshot") in v for v in fu.values())]
print("## fused pairs f32 (TP x DP), medians over rounds: baseline / one-shot (b/1) and AUTO / "
      "baseline (A/b) per build, the one-shot's time / old's (1/o)")
print(f"{'ranks':>5} {'op':<24} {'split':>5} {'buf':<9} {'size':>6} " +
      " ".join(f"{'b/1 ' + b:>9}" for b in builds) + " " +
      " ".join(f"{'A/b ' + b:>9}" for b in builds) + " " +
      " ".join(f"{'1/o ' + b:>9}" for b in builds[1:]))
for k in sorted(fu, key=lambda k: (-k[0], k[1], k[2], k[3], k[4])):
    g = {x: med(y) for x, y in fu[k].items()}
    if not g.get(("old", "oneshot")):
        continue
    print(f"{k[0]:>5} {k[1]:<24} {k[2]:>5} {k[3]:<9} {k[4]:>6} " +
          " ".join(f"{g[(b, 'baseline')] / g[(b, 'oneshot')]:9.2f}" for b in builds) + " " +
          " ".join(f"{g[(b, 'baseline')] / g[(b, 'auto')]:9.2f}" for b in builds) + " " +
          " ".join(f"{g[(b, 'oneshot')] / g[('old', 'oneshot')]:9.2f}" for b in builds[1:]))
