import json, glob, statistics as st
# Run 6: the fused reduce-scatter + all-reduce, 4 ranks (2 x 2) on the 2 cores: medians of the
# launches' times (us) of the baseline and one exchange, and baseline / one exchange (over 1:
# one exchange faster), by dtype, way (plain; touch: input rewritten, output read) and buffers
t = {}
for f in glob.glob('runs/r6_*.jsonl'):
    dt, way = f.split('/')[-1].split('_')[1:3]
    for l in open(f):
        r = json.loads(l)
        t.setdefault((dt, way, r['buffers'], r['size'], r['mode']), []).append(r['time_us'])
print(f"{'dtype':>5} {'way':>5} {'buffers':>9} {'bytes':>6} {'baseline':>9} {'oneshot':>8} {'base/one':>8} (launches)")
for k in sorted({k[:4] for k in t}, key=lambda k: (k[0], k[1], k[2], k[3])):
    b, o = st.median(t[k + ('baseline',)]), st.median(t[k + ('oneshot',)])
    print(f"{k[0]:>5} {k[1]:>5} {k[2]:>9} {k[3]:>6} {b:9.2f} {o:8.2f} {b / o:8.2f} ({len(t[k + ('baseline',)])})")
