#!/usr/bin/env python3
"""Tables of stop 24's VM runs: tables.py RUN1 [RUN2] (the OUT folders of run.sh and limit.sh).
Times are per call in ms; ratios of times in the same VM boot."""
import glob, json, os, sys
from collections import defaultdict

def load(path):
    t = {}
    for line in open(path):
        r = json.loads(line)
        if r.get("suite") == "allreduce" and r.get("time_us") is not None:
            t[(r["mode"], r["size"])] = r["time_us"] / 1000
    return t

MODES = ["out-of-place", "in-place", "out-of-place-symmetric", "in-place-symmetric"]
SHORT = {"out-of-place": "ord oop", "in-place": "ord ip", "out-of-place-symmetric": "sym oop",
         "in-place-symmetric": "sym ip"}

def kib(s):
    return f"{s // 1024} KiB" if s >= 1024 else f"{s} B"

def ratio_table(title, num, den, label):
    """num/den: {round: records}; one row per (size, mode), the ratio per round."""
    print(f"\n{title}\n| size | buffers | " + " | ".join(f"r{r}" for r in sorted(num)) + f" |")
    print("|---|---|" + "---|" * len(num))
    sizes = sorted({k[1] for t in num.values() for k in t})
    for s in sizes:
        for m in MODES:
            cells = []
            for r in sorted(num):
                a, b = num[r].get((m, s)), den.get(r, {}).get((m, s))
                cells.append(f"{a:.1f}/{b:.1f} = {a / b:.2f}" if a and b else "-")
            print(f"| {kib(s)} | {SHORT[m]} | " + " | ".join(cells) + " |")

def runs(d, pat):
    out = {}
    for f in sorted(glob.glob(os.path.join(d, pat))):
        rnd = int(f.rsplit("_r", 1)[1].split(".")[0])
        out[rnd] = load(f)
    return out

def main():
    for d in sys.argv[1:]:
        if glob.glob(os.path.join(d, "vsym_allreduce_np2_r*.jsonl")):
            for np_ in (2, 4):
                ratio_table(f"run.sh: {np_} ranks, AUTO, this tree / {'bea73f0'} (ms, new/old)",
                            runs(d, f"vsym_allreduce_np{np_}_r*.jsonl"),
                            runs(d, f"old_allreduce_np{np_}_r*.jsonl"), "new/old")
            ratio_table("run.sh: 2 x 2 ranks, forced one-shot / forced HIER (its levels forced "
                        "too: two-shot across)", runs(d, "vsym_oneshot_np4_r*.jsonl"),
                        runs(d, "vsym_hier_np4_r*.jsonl"), "oneshot/hier")
        if glob.glob(os.path.join(d, "lim_oneshot_r*.jsonl")):
            ratio_table("limit.sh: 2 x 2 ranks, forced one-shot / forced HIER (levels by rule)",
                        runs(d, "lim_oneshot_r*.jsonl"), runs(d, "lim_hier_r*.jsonl"),
                        "oneshot/hier")
            print("\nlimit.sh: symmetric / ordinary buffers at one size (ms)")
            print("| run | round | oop sym/ord | ip sym/ord |\n|---|---|---|---|")
            for name in ("auto", "nt", "i32", "hier", "np2"):
                for r, t in sorted(runs(d, f"diag_{name}_r*.jsonl").items()):
                    cells = []
                    for o, s in (("out-of-place", "out-of-place-symmetric"),
                                 ("in-place", "in-place-symmetric")):
                        (a,) = [v for (m, _), v in t.items() if m == s]
                        (b,) = [v for (m, _), v in t.items() if m == o]
                        cells.append(f"{a:.1f}/{b:.1f} = {a / b:.2f}")
                    print(f"| {name} | {r} | " + " | ".join(cells) + " |")

        if glob.glob(os.path.join(d, "vsym_peers3_r*.jsonl")):
            ratio_table("peers.sh: 4 ranks over verbs on one device, forced one-shot (three peers "
                        "per exchange), this tree / bea73f0 (ms, new/old)",
                        runs(d, "vsym_peers3_r*.jsonl"), runs(d, "old_peers3_r*.jsonl"),
                        "new/old")
            ratio_table("peers.sh: 2 x 2 ranks, forced one-shot / forced HIER (levels by rule)",
                        runs(d, "small_oneshot_r*.jsonl"), runs(d, "small_hier_r*.jsonl"),
                        "oneshot/hier")

main()
