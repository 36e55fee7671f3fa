#!/usr/bin/env python3
# Tables of run.sh and run2.sh (extract run.tgz and run2.tgz into one folder first):
#   tables.py FOLDER
# Per rank count and size, the symmetric out-of-place all-reduce of the old and new binaries:
# the median time over the rounds, new/old per round (the two launched back to back) and its
# median, the bound fraction of the new binary's median (S x 2(n-1)/n at the speed of memcpy
# alone, and of memcpy while np-1 other cores copy), and Open MPI (one launch) / new. Every
# record's #wrong is checked to be 0.
import glob, json, os, statistics, sys
R = sys.argv[1]
def recs(path):
    return [json.loads(l) for l in open(path)] if os.path.exists(path) else []
def memcpy_us(path):
    return {r['size']: r['lat_us']['median'] for r in recs(path)}
lone = memcpy_us(f'{R}/ref/memcpy.jsonl')
wrong = 0
t = {}
for v in ('old', 'new'):
    for f in glob.glob(f'{R}/{v}/vsym_allreduce_np*_r*.jsonl'):
        np = int(f.split('_np')[1].split('_')[0])
        rd = int(f.rsplit('_r', 1)[1].split('.')[0])
        for r in recs(f):
            if r.get('wrong') not in (0, None): wrong += 1
            if r['mode'] == 'out-of-place-symmetric':
                t.setdefault((np, r['size'], v), {})[rd] = r['time_us']
for np in sorted({k[0] for k in t}):
    loaded = memcpy_us(f'{R}/ref/memcpy_loaded_np{np}.jsonl')
    mpi = {r['size']: r['lat_us']['median'] for r in recs(f'{R}/ref/mpi_np{np}.jsonl')
           if r.get('op') == 'allreduce'}
    print(f'## {np} ranks: size | rounds | old ms | new ms (medians) | new/old per round | median | '
          f'bound fraction of new: alone, loaded | MPI/new')
    for s in sorted({k[1] for k in t if k[0] == np}):
        o, n = t[(np, s, 'old')], t[(np, s, 'new')]
        rounds = sorted(set(o) & set(n))
        per = [n[r] / o[r] for r in rounds]
        nm, om = statistics.median(n.values()), statistics.median(o.values())
        moved = 2 * (np - 1) / np  # bytes moved per byte of S
        fr = lambda ref: f'{moved * ref[s] / nm:4.2f}' if s in ref else ' -  '
        print(f'{s:>10} | {len(rounds)} | {om / 1e3:7.3f} | {nm / 1e3:7.3f} | ' +
              ' '.join(f'{x:4.2f}' for x in per) + f' | {statistics.median(per):4.2f} | ' +
              f'{fr(lone)} {fr(loaded)} | ' + (f'{mpi[s] / nm:5.2f}' if s in mpi else '  -'))
print(f'records with #wrong != 0: {wrong}')
