import json, glob, sys, collections
d = sys.argv[1]
rows = collections.defaultdict(list)
for f in sorted(glob.glob(d + "/np*.txt")):
    name = f.split("/")[-1][:-4]
    v = name.rsplit("_r", 1)[0]
    table = None
    for line in open(f):
        if line.startswith("# allreduce"):
            table = "sym" if "symmetric" in line else "ord"
        elif table and line.strip() and line.split()[0].isdigit():
            p = line.split()
            rows[(v, table, int(p[0]))].append((float(p[2]), float(p[6])))
for k in sorted(rows):
    print(k, " ".join(f"{a/1000:.1f}/{b/1000:.1f}" for a, b in rows[k]))
