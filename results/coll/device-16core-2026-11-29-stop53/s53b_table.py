#!/usr/bin/env python3
"""Stop 53's second device run (run_s53b.sh): per launch, the medians over ranks and prints of
the debug build's averages: the touch per mode (1 one-shot, 2 two-shot, 4 baseline), the
two-shot's phases on symmetric buffers (entry wait, reduce + pushes, exit wait), the baseline's
(reduce-scatter, all-reduce) and the reduce-scatter's own (entry wait, reduction, exit wait); and
the table's times.   python3 s53b_table.py DIR   (DIR: the unpacked s53b folder)"""
import glob, os, re, statistics, sys
d = sys.argv[1]
for f in sorted(glob.glob(os.path.join(d, "rsar.*.txt"))):
    text = open(f).read()
    name = os.path.basename(f)[5:-4]
    # the symmetric table's prints only: those after its header
    parts = text.split("symmetric buffers")
    sym = parts[1] if len(parts) > 1 else ""
    rows = [l for l in text.splitlines() if re.match(r"\s+\d+\s+\d+\s", l)]
    def med(pat, txt):
        vals = [list(map(float, m.groups())) for m in re.finditer(pat, txt)]
        if not vals:
            return "-"
        return " ".join(f"{statistics.median(v[i] for v in vals):6.2f}" for i in range(len(vals[0])))
    out = [f"{name:22s}"]
    num = r"([\d.]+)"
    for m in (1, 2, 4):
        out.append("touch%d %s" % (m, med(r"touch m %d: %s us" % (m, num), sym)))
    out.append("| twoshot " + med(r"m 2: %s %s %s [\d.]+ us" % (num, num, num), sym))
    out.append("| base " + med(r"m 4: %s %s [\d.]+ [\d.]+ us" % (num, num), sym))
    out.append("| rs_zc " + med(r"rs_zc: %s %s %s us" % (num, num, num), sym))
    print("  ".join(out))
    if len(rows) > 1:
        print(f"{'':22s}  table (sym): {' '.join(rows[1].split()[2:7])}")
