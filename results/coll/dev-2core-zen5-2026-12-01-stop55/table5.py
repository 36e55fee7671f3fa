import json, glob
# Runs 1 and 4, 2 ranks: the all-reduce of symmetric buffers launch by launch, time (us) and the
# cores' state before the size (core_rtt_ns over 250: F far, else n near); def/new: the library's
# path (in place from 16 KiB), zc0: through the scratch (VSYM_COLL_ZEROCOPY_MIN=1G)
for mode in ('out-of-place-symmetric', 'in-place-symmetric'):
    print(f"# {mode}")
    for f in sorted(glob.glob('runs/r1_2_*.jsonl')) + sorted(glob.glob('runs/r4_2_new_*.jsonl')):
        cells = []
        for l in open(f):
            r = json.loads(l)
            if r['mode'] == mode:
                state = 'F' if r.get('core_rtt_ns', 0) > 250 else 'n'
                cells.append(f"{r['size'] // 1024:>5}K {r['time_us']:7.1f} {state}")
        print(f"{f.split('/')[-1]:<18} " + " |".join(cells))
