"""Sweep files: parse, check and expand a TOML sweep into points (launch/sweeps/README.md).

A point is one vsym-bench invocation: one suite, one size entry (a size, a range or the
suite's default), one rank count, one transport, one mode, one op, one dtype, one settings
variant, one repeat. Its id is derived from its definition only, so a resumed run finds the
points it already recorded even when the sweep file gained new ones.
"""

import hashlib
import json
import re
import tomllib

SUITES = ("put", "get", "put-nbi", "get-nbi", "atomic", "put-signal", "signal", "barrier",
          "allreduce", "allgather", "reduce-scatter", "broadcast", "alltoall", "fused", "copy",
          "reshard")
# Suites that take no message size: a size list in a matrix is ignored for them (one point).
SIZELESS = ("atomic", "signal", "barrier")
# shm: VSYM_TRANSPORT=shm (one node); verbs: verbs between every pair of ranks; vnodes: one
# machine split into pretend nodes (verbs between them, shm inside); auto: the library's
# choice, shm inside a node and verbs between nodes (many-node runs).
TRANSPORTS = ("shm", "verbs", "vnodes", "auto")
MODES = ("lat", "bw", "both")

# The one size grammar of the project (lib/util/size.c, vsym_util_parse_size): digits, then
# optionally K, M, G or T (powers of 1024) followed by nothing, B or iB; or a bare B.
SIZE_RE = re.compile(r"^\s*(\d+)(?:([KMGTkmgt])(?:[bB]|[iI][bB])?|[bB])?$")
SHIFT = {"k": 10, "m": 20, "g": 30, "t": 40}
ENV_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class SweepError(Exception):
    """One or more problems in a sweep file; str() is one 'FILE:LINE: field ...' per line."""


def parse_size(value):
    """Bytes of a size given as an int or a string like "4K"; ValueError with the reason."""
    if isinstance(value, bool):
        raise ValueError("a size is a number or a string like \"4K\", not true/false")
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"negative size {value}")
        return value
    if not isinstance(value, str):
        raise ValueError(f"a size is a number or a string like \"4K\", got {type_name(value)}")
    m = SIZE_RE.match(value)
    if not m:
        raise ValueError(f"malformed size '{value}' (sizes look like 8, 4K, 1M, 2G)")
    return int(m.group(1)) << SHIFT.get((m.group(2) or "").lower(), 0)


def format_size(n):
    """Compact size text: 4096 -> 4K, 1048576 -> 1M, 1000 -> 1000."""
    for unit, shift in (("T", 40), ("G", 30), ("M", 20), ("K", 10)):
        if n and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(n)


def type_name(v):
    return {bool: "true/false", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "a table"}.get(type(v), type(v).__name__)


# Point fields: name -> (kind, plural name or None). Kinds are checked in check_value().
FIELDS = {
    "suite": ("suite", "suites"),
    "size": ("size", "sizes"),
    "ranks": ("posint", None),        # int or list of ints in a matrix
    "transport": ("transport", "transports"),
    "mode": ("mode", "modes"),
    "op": ("str", "ops"),
    "dtype": ("str", "dtypes"),
    "settings": ("envlist", None),    # list of env tables: one point per entry
    "env": ("env", None),
    "nodes": ("posint", None),
    "ranks_per_node": ("posint", None),
    "vnodes": ("vnodes", None),
    "vm": ("bool", None),
    "iterations": ("posint", None),
    "warmup": ("nonnegint", None),
    "duration": ("posnum", None),
    "window": ("posint", None),
    "check": ("bool", None),
    "pairs": ("bool", None),
    "timeout": ("posint", None),
    "repeat": ("posint", None),
    "args": ("strlist", None),
}
PLURAL = {p: s for s, (_, p) in FIELDS.items() if p}
TOP_LEVEL = ("name", "description", "defaults", "matrix", "point")


class Locator:
    """Finds the line of a key in the sweep text, for errors that tomllib cannot place."""

    HEADER_RE = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.-]+)\s*\]\]?")

    def __init__(self, text):
        self.lines = text.splitlines()
        # (table name, occurrence index, first line, last line), lines 1-based.
        self.sections = []
        current = ("", 0, 1)
        counts = {}
        for i, line in enumerate(self.lines, 1):
            m = self.HEADER_RE.match(line)
            if m:
                self.sections.append((current[0], current[1], current[2], i - 1))
                name = m.group(1)
                idx = counts.get(name, 0)
                counts[name] = idx + 1
                current = (name, idx, i)
        self.sections.append((current[0], current[1], current[2], len(self.lines)))

    def line(self, table, index, key):
        """Line of `key =` inside the index-th [table] / [[table]]; the header line when the
        key is not there (a missing field); 1 when nothing matches."""
        key_re = re.compile(r"^\s*(?:" + re.escape(key) + r'|"' + re.escape(key) + r'")\s*=')
        for name, idx, first, last in self.sections:
            if name == table and idx == index:
                if key:
                    for n in range(first, last + 1):
                        if key_re.match(self.lines[n - 1]):
                            return n
                return first
        return 1


class Checker:
    def __init__(self, path, text):
        self.path = path
        self.loc = Locator(text)
        self.errors = []

    def error(self, table, index, field, message):
        line = self.loc.line(table, index, field)
        where = f"{self.path}:{line}"
        self.errors.append(f"{where}: field '{field}': {message}" if field
                           else f"{where}: {message}")

    # --- single values -----------------------------------------------------------------------
    def check_value(self, kind, value):
        """Returns the normalised value or raises ValueError with the reason."""
        if kind == "suite":
            if not isinstance(value, str):
                raise ValueError(f"a suite name is a string, got {type_name(value)}")
            if value not in SUITES:
                raise ValueError(f"unknown suite '{value}' (suites: {' '.join(SUITES)})")
            return value
        if kind == "size":
            return normalise_size_entry(value)
        if kind == "transport":
            if value not in TRANSPORTS:
                raise ValueError(f"unknown transport {json.dumps(value)} "
                                 f"(transports: {' '.join(TRANSPORTS)})")
            return value
        if kind == "mode":
            if value not in MODES:
                raise ValueError(f"unknown mode {json.dumps(value)} (modes: lat bw both)")
            return value
        if kind == "str":
            if not isinstance(value, str) or not value:
                raise ValueError(f"expected a non-empty string, got {type_name(value)}")
            return value
        if kind in ("posint", "nonnegint", "vnodes"):
            low = {"posint": 1, "nonnegint": 0, "vnodes": 2}[kind]
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"expected an integer, got {type_name(value)}")
            if value < low:
                raise ValueError(f"must be at least {low}, got {value}")
            return value
        if kind == "posnum":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"expected a positive number, got {json.dumps(value)}")
            return value
        if kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"expected true or false, got {type_name(value)}")
            return value
        if kind == "strlist":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ValueError("expected a list of strings")
            return list(value)
        if kind == "env":
            return normalise_env(value)
        if kind == "envlist":
            if not isinstance(value, list) or not value:
                raise ValueError("expected a non-empty list of tables of environment settings")
            return [normalise_env(v) for v in value]
        raise AssertionError(kind)

    # --- one [[matrix]] / [[point]] / [defaults] table ---------------------------------------
    def check_table(self, table, index, data, single):
        """Normalised {field: list of values or value}; errors are collected."""
        out = {}
        if not isinstance(data, dict):
            self.error(table, index, "", f"[{table}] must be a table")
            return None
        for key, value in data.items():
            field = PLURAL.get(key, key)
            if field not in FIELDS:
                known = " ".join(sorted(list(FIELDS) + list(PLURAL)))
                self.error(table, index, key, f"unknown field (fields: {known})")
                continue
            if field in out:
                self.error(table, index, key, f"given twice (as '{field}' and its plural)")
                continue
            kind, _ = FIELDS[field]
            listy = key in PLURAL or (field == "ranks" and isinstance(value, list))
            if single and (key in PLURAL or field == "settings" or
                           (field == "ranks" and isinstance(value, list))):
                if field == "settings":
                    self.error(table, index, key, "a [[point]] takes no settings list: give "
                               "its environment as env = { ... }, or use a [[matrix]]")
                else:
                    self.error(table, index, key, f"a [[point]] takes one value: use "
                               f"'{field}', or a [[matrix]] for lists")
                continue
            if field == "size" and key == "sizes" and value == "all":
                out[field] = ["all"]
                continue
            try:
                if listy:
                    if not isinstance(value, list) or not value:
                        raise ValueError(f"expected a non-empty list, got {type_name(value)}")
                    norm = [self.check_value(kind, v) for v in value]
                else:
                    norm = self.check_value(kind, value)
                    if field in ("suite", "size", "transport", "mode", "op", "dtype", "ranks"):
                        norm = [norm]
                out[field] = norm
            except ValueError as e:
                self.error(table, index, key, str(e))
        return out


def normalise_size_entry(value):
    """A size entry: one size ("4K", 4096), "all" (2 B .. 8 MiB), or a range table
    {b = "8", e = "8M", f = 2}. Returns a canonical dict."""
    if value == "all":
        return {"all": True}
    if isinstance(value, dict):
        unknown = set(value) - {"b", "e", "f"}
        if unknown:
            raise ValueError(f"a size range has keys b, e, f; unknown: {', '.join(sorted(unknown))}")
        if "b" not in value or "e" not in value:
            raise ValueError("a size range needs b (first size) and e (last size)")
        b = parse_size(value["b"])
        e = parse_size(value["e"])
        f = value.get("f", 2)
        if isinstance(f, bool) or not isinstance(f, int) or f < 2:
            raise ValueError(f"a size range's factor f must be an integer >= 2, got {f!r}")
        if b < 1 or e < b:
            raise ValueError(f"a size range needs 1 <= b <= e, got b={b} e={e}")
        return {"b": b, "e": e, "f": f}
    return {"s": parse_size(value)}


def normalise_env(value):
    if not isinstance(value, dict):
        raise ValueError(f"environment settings are a table (NAME = \"value\"), got "
                         f"{type_name(value)}")
    out = {}
    for k, v in value.items():
        if not ENV_NAME_RE.match(k):
            raise ValueError(f"bad environment variable name '{k}'")
        if isinstance(v, bool):
            v = "1" if v else "0"
        elif isinstance(v, (int, float, str)):
            v = str(v)
        else:
            raise ValueError(f"{k}: a setting's value is a string or number, got {type_name(v)}")
        out[k] = v
    return out


def size_tag(entry):
    if entry is None:
        return ""
    if "all" in entry:
        return "all"
    if "s" in entry:
        return format_size(entry["s"])
    return f"{format_size(entry['b'])}-{format_size(entry['e'])}x{entry['f']}"


def size_args(entry):
    if entry is None:
        return []
    if "all" in entry:
        return ["-a"]
    if "s" in entry:
        return ["-s", str(entry["s"])]
    return ["-b", str(entry["b"]), "-e", str(entry["e"]), "-f", str(entry["f"])]


def point_id(p):
    """Readable, deterministic, file-name-safe id of a point's definition."""
    parts = [p["suite"], p["transport"] + (str(p["vnodes"]) if p["transport"] == "vnodes" else ""),
             f"n{p['ranks']}"]
    if p.get("nodes"):
        parts.append(f"N{p['nodes']}")
    if p.get("size") is not None:
        parts.append(size_tag(p["size"]))
    if p.get("mode", "both") != "both":
        parts.append(p["mode"])
    for f in ("op", "dtype"):
        if p.get(f):
            parts.append(re.sub(r"[^A-Za-z0-9+-]", "_", p[f]))
    if p.get("vm"):
        parts.append("vm")
    # Everything else that changes what is measured goes into a short hash. The statistical
    # effort (iterations, warm-up, duration) and --check do not: a point keeps its id when
    # only they change, so runs of different lengths compare point by point.
    rest = {k: p[k] for k in ("env", "window", "pairs", "args")
            if p.get(k) not in (None, {}, [], False)}
    if rest:
        digest = hashlib.sha256(json.dumps(rest, sort_keys=True).encode()).hexdigest()[:8]
        parts.append("h" + digest)
    if p.get("repeat_index", 1) > 1:
        parts.append(f"r{p['repeat_index']}")
    return ".".join(parts)


def load(path):
    """Parse and check a sweep file. Returns (sweep dict, list of points); raises SweepError
    naming file, line and field for every problem found."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise SweepError(f"{path}: cannot read: {e.strerror}")
    try:
        text = raw.decode("utf-8")
        data = tomllib.loads(text)
    except UnicodeDecodeError as e:
        raise SweepError(f"{path}:1: not UTF-8 text ({e.reason})")
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        line = m.group(1) if m else "1"
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", msg)
        col = f" column {m.group(2)}" if m else ""
        raise SweepError(f"{path}:{line}: TOML syntax error{col}: {msg}")
    ck = Checker(path, text)
    for key in data:
        if key not in TOP_LEVEL:
            ck.error("", 0, key, "unknown top-level key (keys: name description [defaults] "
                     "[[matrix]] [[point]])")
    for key in ("name", "description"):
        if key in data and not isinstance(data[key], str):
            ck.error("", 0, key, f"expected a string, got {type_name(data[key])}")
    name = data.get("name") if isinstance(data.get("name"), str) else None
    if name is not None and not re.match(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$", name):
        ck.error("", 0, "name", f"'{name}' is not a simple name (letters, digits, _ . -)")
    defaults = {}
    if "defaults" in data:
        defaults = ck.check_table("defaults", 0, data["defaults"], single=False) or {}
    tables = []
    for kind in ("matrix", "point"):
        entries = data.get(kind, [])
        if isinstance(entries, dict):
            entries = [entries]          # [matrix] as a single table
        if not isinstance(entries, list):
            ck.error("", 0, kind, f"expected [[{kind}]] tables")
            continue
        for i, t in enumerate(entries):
            norm = ck.check_table(kind, i, t, single=(kind == "point"))
            if norm is not None:
                # Names given, even with a bad value, so a bad value is not also "missing".
                given = {PLURAL.get(k, k) for k in t} | {PLURAL.get(k, k) for k in
                                                        (data.get("defaults") or {})}
                tables.append((kind, i, norm, given))
    if not tables and not ck.errors:
        ck.error("", 0, "", "no [[matrix]] or [[point]] table: nothing to run")
    points = []
    for kind, i, t, given in tables:
        merged = dict(defaults)
        merged.update(t)
        if "env" in defaults and "env" in t:
            merged["env"] = {**defaults["env"], **t["env"]}
        missing = [f for f in ("suite", "ranks", "transport") if f not in merged]
        if any(f in given for f in missing):
            continue                     # reported as a bad value already
        for f in missing:
            ck.error(kind, i, f, f"missing (every [[{kind}]] needs suite, ranks and transport; "
                     f"a [[matrix]] may use the plural {FIELDS[f][1] or f})")
        if missing:
            continue
        if "nodes" in merged and "ranks_per_node" in merged:
            ck.error(kind, i, "ranks_per_node", "give nodes or ranks_per_node, not both")
            continue
        if (merged.get("nodes", 1) > 1 or "ranks_per_node" in merged) and \
                "shm" in merged["transport"]:
            ck.error(kind, i, "nodes", "transport shm cannot cross nodes: use verbs or a "
                     "separate table for nodes = 1")
            continue
        if merged.get("vnodes") and "vnodes" not in merged["transport"]:
            ck.error(kind, i, "vnodes", "vnodes is the pretend-node count of transport "
                     "\"vnodes\", which this table does not use")
            continue
        points.extend(expand(merged, kind, i))
    if ck.errors:
        raise SweepError("\n".join(ck.errors))
    seen = {}
    unique = []
    for p in points:
        if p["id"] in seen:
            continue                     # the same point from two tables runs once
        seen[p["id"]] = p
        unique.append(p)
    sweep = {"name": name, "description": data.get("description", ""), "path": path,
             "text": text, "sha256": hashlib.sha256(raw).hexdigest()}
    return sweep, unique


def expand(t, kind, index):
    sizes = t.get("size")
    settings = t.get("settings") or [{}]
    out = []
    for suite in t["suite"]:
        suite_sizes = [None] if (suite in SIZELESS or not sizes) else sizes
        for size in suite_sizes:
            for ranks in t["ranks"]:
                for transport in t["transport"]:
                    for mode in t.get("mode", ["both"]):
                        for op in t.get("op", [None]):
                            for dtype in t.get("dtype", [None]):
                                for variant in settings:
                                    base = {
                                        "suite": suite, "size": size, "ranks": ranks,
                                        "transport": transport, "mode": mode, "op": op,
                                        "dtype": dtype,
                                        "env": {**t.get("env", {}), **variant},
                                        "vnodes": (t.get("vnodes", 2)
                                                   if transport == "vnodes" else None),
                                        "from": f"{kind}[{index}]",
                                    }
                                    if "ranks_per_node" in t:
                                        rpn = t["ranks_per_node"]
                                        base["ranks_per_node"] = rpn
                                        base["nodes"] = -(-ranks // rpn)
                                    for f in ("nodes", "vm", "iterations", "warmup",
                                              "duration", "window", "check", "pairs",
                                              "timeout", "args"):
                                        if f in t:
                                            base[f] = t[f]
                                    for r in range(1, t.get("repeat", 1) + 1):
                                        p = dict(base, repeat_index=r)
                                        p["id"] = point_id(p)
                                        out.append(p)
    return out


def bench_args(p):
    """vsym-bench arguments of a point, without --json."""
    a = [p["suite"]] + size_args(p.get("size"))
    if p.get("mode", "both") != "both":
        a += ["--mode", p["mode"]]
    if p.get("op"):
        a += ["--op", p["op"]]
    if p.get("dtype"):
        a += ["--dtype", p["dtype"]]
    if p.get("iterations"):
        a += ["-n", str(p["iterations"])]
    if p.get("warmup") is not None:
        a += ["-w", str(p["warmup"])]
    if p.get("duration"):
        a += ["-D", str(p["duration"])]
    if p.get("window"):
        a += ["--window", str(p["window"])]
    if p.get("check"):
        a.append("--check")
    if p.get("pairs"):
        a.append("--pairs")
    a += p.get("args", [])
    return a


def transport_env(p):
    """Environment a point's transport needs, on top of the point's own settings."""
    if p["transport"] == "shm":
        return {"VSYM_TRANSPORT": "shm"}
    if p["transport"] == "verbs":
        return {"VSYM_TRANSPORT": "verbs"}
    if p["transport"] == "auto":
        return {"VSYM_TRANSPORT": "auto"}
    return {"VSYM_TRANSPORT": "auto", "VSYM_VIRTUAL_NODES": str(p["vnodes"])}
