"""Helpers of the Soft-RoCE VM tables.py scripts of results/coll: the JSON records of one run
folder, the time of a record (Open MPI's mpi-coll: its average; vsym-bench: time_us, both average
us per call, the slowest rank's), and the column formats."""
import json, os


def load(d, name):
    p = os.path.join(d, name)
    return [json.loads(l) for l in open(p)] if os.path.exists(p) else []


def t(r):
    return r['lat_us']['avg'] if r['tool'] == 'mpi-coll' else r['time_us']


def f(x):
    return '%8.0f' % x if x else '       -'


def q(a, b):
    return '%5.2f' % (a / b) if a and b else '    -'
