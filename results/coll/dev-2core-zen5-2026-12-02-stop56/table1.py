import json, glob, sys, statistics as st
# The runs matching argv[1] (run 1 without): time per call (us) by size, path setting and the cores'
# state at the row (core_rtt_ns over 250: far), argv[2]'s mode (symmetric buffers out of place)
pat = sys.argv[1] if len(sys.argv) > 1 else 'runs/r1_*.jsonl'
mode = sys.argv[2] if len(sys.argv) > 2 else 'out-of-place-symmetric'
cells = {}
for f in sorted(glob.glob(pat)):
    how = f.split('/')[-1].split('_')[1]
    for l in open(f):
        r = json.loads(l)
        if r['mode'] != mode:
            continue
        state = 'far' if r.get('core_rtt_ns', 0) > 250 else 'near'
        cells.setdefault((r['size'], state, how), []).append(r['time_us'])
hows = sorted({k[2] for k in cells})
print(f"# {mode}: median [min-max] (launches)")
for size in sorted({k[0] for k in cells}):
    for state in ('near', 'far'):
        row = []
        for how in hows:
            v = cells.get((size, state, how), [])
            row.append(f"{how} {st.median(v):8.1f} [{min(v):.1f}-{max(v):.1f}] ({len(v)})" if v else f"{how} -")
        print(f"{size:>9} {state:>4}  " + "  |  ".join(row))
