import glob, json, os, statistics, sys
from collections import defaultdict
t = defaultdict(list); wrong = 0; runs = defaultdict(int)
for f in glob.glob(sys.argv[1] + "/*_r*_*_*.jsonl"):
    b = os.path.basename(f)[:-6].split("_")
    suite, v, a, bb = b[0], b[1], int(b[3]), int(b[4])
    st = "near" if a < 150 and bb < 150 else "far" if a > 250 and bb > 250 else None
    if st is None: continue
    runs[(suite, v, st)] += 1
    for line in open(f):
        r = json.loads(line)
        wrong += r.get("wrong") or 0
        t[(suite, r["mode"], r["size"], st, v)].append(r["time_us"])
print("#wrong", wrong)
for k in sorted(runs): print(k, runs[k])
print(f"{'suite':14} {'mode':22} {'size':>8} | {'near off':>9} {'auto':>9} {'a/o':>5} | {'far off':>9} {'auto':>9} {'a/o':>5}")
keys = sorted({k[:3] for k in t})
for s, m, z in keys:
    row = f"{s:14} {m:22} {z:>8} |"
    for st in ("near", "far"):
        o, a = t.get((s, m, z, st, "off")), t.get((s, m, z, st, "auto"))
        mo = statistics.median(o) if o else float("nan"); ma = statistics.median(a) if a else float("nan")
        row += f" {mo:9.1f} {ma:9.1f} {ma/mo:5.2f} |"
    print(row)
