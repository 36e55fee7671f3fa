"""Reading result records (results/README.md, schema 1) and what the report and the comparison
need from them: the configuration key of a record, its headline metric, series labels."""

import glob
import json
import os
import statistics
import sys

COLLECTIVES = ("allreduce", "allgather", "reduce-scatter", "broadcast", "alltoall", "reduce")

# Settings that say how a point ran rather than what it measured; they do not separate
# configurations (the transport has its own key, the VM sets the device).
NEUTRAL_SETTINGS = ("VSYM_TRANSPORT", "VSYM_VIRTUAL_NODES", "VSYM_LOG_LEVEL", "VSYM_TIMEOUT",
                    "VSYM_DEVICE", "VSYM_STRICT", "VSYM_GID_INDEX", "VSYM_PORT")


class RunError(Exception):
    pass


def load_run(path):
    """Records and run metadata of a run folder (vsym-sweep's points/*.jsonl, main-job's
    *.jsonl) or of one .jsonl file. Returns (records, meta, files)."""
    meta = {}
    if os.path.isdir(path):
        meta_path = os.path.join(path, "run.json")
        if os.path.exists(meta_path):
            with open(meta_path) as f:
                meta = json.load(f)
        files = sorted(glob.glob(os.path.join(path, "points", "*.jsonl")))
        if not files:
            files = sorted(f for f in glob.glob(os.path.join(path, "**", "*.jsonl"),
                                                recursive=True)
                           if "/report/" not in f and not os.path.basename(f).startswith("."))
    elif os.path.isfile(path):
        files = [path]
    else:
        raise RunError(f"{path}: no such run folder or file")
    records = []
    for fn in files:
        with open(fn) as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    r = json.loads(line)
                except json.JSONDecodeError as e:
                    print(f"vsym-report: {fn}:{n}: skipped, not JSON: {e.msg}", file=sys.stderr)
                    continue
                if not isinstance(r, dict) or "suite" not in r:
                    print(f"vsym-report: {fn}:{n}: skipped, not a result record",
                          file=sys.stderr)
                    continue
                r["_file"] = fn
                r["_line"] = n
                records.append(r)
    if not records:
        raise RunError(f"{path}: no result records (looked in {len(files)} .jsonl file(s))")
    return records, meta, files


def config(r):
    c = r.get("config")
    return c if isinstance(c, dict) else {}


def transport(r):
    """The transport label of a record: the sweep's (shm, verbs, vnodes) when a sweep made it,
    else the record's pair transport, else the set of transports of the job."""
    s = r.get("sweep")
    if isinstance(s, dict) and s.get("transport"):
        t = s["transport"]
        return f"vnodes{s['vnodes']}" if t == "vnodes" and s.get("vnodes") else t
    c = config(r)
    vn = (c.get("settings") or {}).get("VSYM_VIRTUAL_NODES", "0")
    if vn not in ("0", "", None):
        return f"vnodes{vn}"
    if isinstance(r.get("transport"), str):
        return r["transport"]
    tps = c.get("transport")
    if isinstance(tps, list):
        rest = sorted(set(tps) - {"self"})
        return "+".join(rest) if rest else "self"
    return "?"


def variant(r):
    """Settings given in the environment that change what is measured, as 'K=V,K=V'."""
    c = config(r)
    settings = c.get("settings") or {}
    names = c.get("settings_from_env") or []
    s = r.get("sweep")
    if isinstance(s, dict) and isinstance(s.get("env"), dict):
        names = sorted(set(names) | set(s["env"]))
    out = []
    for n in sorted(names):
        if n in NEUTRAL_SETTINGS:
            continue
        v = settings.get(n, (s or {}).get("env", {}).get(n) if isinstance(s, dict) else None)
        out.append(f"{n}={v}")
    return ",".join(out)


def ranks(r):
    return config(r).get("ranks")


# The fields that identify a measured configuration, in label order. Missing ones are None.
KEY_FIELDS = ("tool", "suite", "op", "mode", "size", "ranks", "nodes", "transport", "dtype",
              "redop", "algo", "bits", "pair", "pattern", "model", "from", "to", "vm",
              "variant")


def key_dict(r):
    c = config(r)
    s = r.get("sweep") if isinstance(r.get("sweep"), dict) else {}
    pair = r.get("pair")
    return {
        "tool": r.get("tool", "?"), "suite": r.get("suite"), "op": r.get("op"),
        "mode": r.get("mode"), "size": r.get("size"), "ranks": c.get("ranks"),
        "nodes": c.get("nodes"), "transport": transport(r), "dtype": r.get("dtype"),
        "redop": r.get("redop"), "algo": r.get("algo"), "bits": r.get("bits"),
        "pair": f"{pair[0]}-{pair[1]}" if isinstance(pair, list) and len(pair) == 2 else None,
        "pattern": r.get("pattern"), "model": r.get("model"), "from": r.get("from"),
        "to": r.get("to"), "vm": True if s.get("vm") else None, "variant": variant(r) or None,
    }


def key(r):
    d = key_dict(r)
    return tuple(d[f] for f in KEY_FIELDS)


def num(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def metric(r):
    """The headline figure of a record: (name, value, unit, higher_is_better) or None.
    Latency records: the median latency; bandwidth records: the average bandwidth; collectives:
    the bus bandwidth; reshard: its bandwidth; copy: bandwidth per rank."""
    lat = r.get("lat_us") if isinstance(r.get("lat_us"), dict) else None
    if r.get("mode") == "lat" and lat and num(lat.get("median")) is not None:
        return ("latency median", lat["median"], "us", False)
    if num(r.get("busbw_gbs")) is not None:
        return ("busbw", r["busbw_gbs"], "GB/s", True)
    if num(r.get("algbw_gbs")) is not None:
        return ("algbw", r["algbw_gbs"], "GB/s", True)
    bw = r.get("bw_gbs")
    if isinstance(bw, dict) and num(bw.get("avg")) is not None:
        return ("bandwidth avg", bw["avg"], "GB/s", True)
    if num(bw) is not None:
        return ("bandwidth", bw, "GB/s", True)
    cp = r.get("copy")
    if isinstance(cp, dict) and num(cp.get("bw_per_rank_gbs")) is not None:
        return ("bandwidth per rank", cp["bw_per_rank_gbs"], "GB/s", True)
    if lat and num(lat.get("median")) is not None:
        return ("latency median", lat["median"], "us", False)
    if num(r.get("time_us")) is not None:
        return ("time", r["time_us"], "us", False)
    return None


def median(values):
    return statistics.median(values) if values else None


def format_size(n):
    if not isinstance(n, int):
        return str(n)
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if n and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(n)


def label(d, fields):
    """A short text for the key fields `fields` of key dict d."""
    parts = []
    for f in fields:
        v = d.get(f)
        if v is None or v == "":
            continue
        if f == "ranks":
            parts.append(f"{v} ranks")
        elif f == "nodes":
            if v != 1:
                parts.append(f"{v} nodes")
        elif f == "size":
            parts.append(f"{format_size(v)} B")
        elif f == "vm":
            parts.append("VM")
        elif f == "bits":
            parts.append(f"{v}-bit")
        elif f == "pair":
            parts.append(f"pair {v}")
        elif f == "tool" and v == "vsym-bench":
            continue
        elif f == "from" and "to" in fields:
            continue
        elif f == "to":
            parts.append(f"{d.get('from') or '?'}->{v}")
        else:
            parts.append(str(v))
    return " ".join(parts)


def point_label(d):
    d = dict(d)
    if d.get("op") == d.get("suite"):
        d["op"] = None
    if d.get("nodes") == 1:
        d["nodes"] = None
    return label(d, ("tool", "suite", "op", "mode", "size", "transport", "ranks", "nodes",
                     "dtype", "redop", "algo", "bits", "pair", "pattern", "model", "from",
                     "to", "vm", "variant"))
