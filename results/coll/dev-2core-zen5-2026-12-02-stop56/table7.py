import json, glob, statistics as st, sys
# Runs 6 (before) and 7 (after): AUTO by the rule (no table) against the baseline, f32: medians of
# the launches' baseline / AUTO (over 1: AUTO faster) and the mode AUTO ran
t = {}
for run in ('r6', 'r7'):
    for f in glob.glob(f'runs/{run}_f32_*.jsonl'):
        way = f.split('/')[-1].split('_')[2]
        for l in open(f):
            r = json.loads(l)
            k = (way, r['buffers'], r['size'])
            if r['mode'] == 'auto':
                t.setdefault((run,) + k, []).append((r['speedup_vs_baseline'], r.get('selected')))
print(f"{'way':>5} {'buffers':>9} {'bytes':>6}  {'before':>14}  {'after':>14}")
for k in sorted({k[1:] for k in t}):
    cells = []
    for run in ('r6', 'r7'):
        v = t.get((run,) + k, [])
        cells.append(f"{st.median(x for x, _ in v):5.2f} {v[0][1]:>8}" if v else '-')
    print(f"{k[0]:>5} {k[1]:>9} {k[2]:>6}  {cells[0]:>14}  {cells[1]:>14}")
