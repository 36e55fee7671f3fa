"""vsym-report RUN: tables on stdout, gnuplot charts (PNG and SVG) and one index.html."""

import html
import os
import shutil
import subprocess
import sys

import records as R

SUITE_ORDER = ("put", "get", "put-nbi", "get-nbi", "atomic", "put-signal", "put-signal-nbi",
               "signal", "barrier",
               "allreduce", "allgather", "reduce-scatter", "broadcast", "alltoall", "fused",
               "copy", "reshard", "memcpy")


def num(v):
    return R.num(v)


def panels_of(r):
    """(panel id, y label, value, extra columns) for every chart a record belongs to."""
    out = []
    lat = r.get("lat_us") if isinstance(r.get("lat_us"), dict) else {}
    bw = r.get("bw_gbs")
    if r.get("mode") == "lat" and num(lat.get("median")) is not None:
        out.append(("latency", "latency, median (us)", lat["median"],
                    {"min us": lat.get("min"), "p99 us": lat.get("p99"),
                     "Mops/s": r.get("mops")}))
    elif isinstance(bw, dict) and num(bw.get("avg")) is not None:
        out.append(("bandwidth", "bandwidth, average (GB/s)", bw["avg"],
                    {"peak GB/s": bw.get("peak"), "Mops/s": r.get("mops")}))
    if num(r.get("busbw_gbs")) is not None:
        out.append(("busbw", "bus bandwidth (GB/s)", r["busbw_gbs"],
                    {"algbw GB/s": r.get("algbw_gbs"), "time us": r.get("time_us"),
                     "wrong": r.get("wrong")}))
    elif num(r.get("algbw_gbs")) is not None:
        out.append(("algbw", "algorithm bandwidth (GB/s)", r["algbw_gbs"],
                    {"time us": r.get("time_us"), "speedup": r.get("speedup_vs_baseline"),
                     "wrong": r.get("wrong")}))
    if num(r.get("time_us")) is not None and (num(r.get("busbw_gbs")) is not None or
                                              num(r.get("algbw_gbs")) is not None):
        out.append(("time", "time per operation (us)", r["time_us"], {}))
    if num(bw) is not None:
        out.append(("bandwidth", f"{r.get('suite')} bandwidth (GB/s)", bw,
                    {"plan ms": r.get("plan_ms"), "refit ms": r.get("refit_ms_median"),
                     "copy GB/s": r.get("copy_bw_gbs"), "wrong": r.get("wrong")}))
    cp = r.get("copy")
    if isinstance(cp, dict) and num(cp.get("bw_per_rank_gbs")) is not None:
        out.append(("bandwidth", "copy bandwidth per rank (GB/s)", cp["bw_per_rank_gbs"],
                    {"median us": cp.get("median_us"),
                     "naive/copy": r.get("naive_over_copy"), "wrong": r.get("wrong")}))
    if not out:
        m = R.metric(r)
        if m:
            out.append((m[0].replace(" ", "-"), f"{m[0]} ({m[2]})", m[1], {}))
    return out


class Panel:
    def __init__(self, suite, pid, ylabel):
        self.suite = suite
        self.pid = pid
        self.ylabel = ylabel
        self.cells = {}      # (series key, size) -> list of (value, extra)
        self.series = {}     # series key -> key dict without size

    def add(self, r, value, extra):
        d = R.key_dict(r)
        size = d.pop("size")
        if self.pid in ("latency", "bandwidth") and self.suite not in R.COLLECTIVES:
            d.pop("mode")    # the panel says it
        skey = tuple(sorted((k, v) for k, v in d.items()))
        self.series.setdefault(skey, d)
        self.cells.setdefault((skey, size), []).append((value, extra))

    def varying(self):
        fields = [f for f in R.KEY_FIELDS if f != "size"]
        out = []
        for f in fields:
            values = {d.get(f) for d in self.series.values()}
            if len(values) > 1:
                out.append(f)
        return out

    def constant_label(self):
        var = set(self.varying())
        d = next(iter(self.series.values()))
        fields = [f for f in ("tool", "transport", "ranks", "nodes", "dtype", "redop", "algo",
                              "pattern", "model", "vm", "variant", "mode")
                  if f not in var and f in d]
        return R.label(d, fields)

    def series_labels(self):
        var = self.varying() or ["op"]
        return {k: (R.label(d, var) or d.get("op") or self.suite) for k, d in self.series.items()}

    def rows(self):
        """[(series label, size, median value, n, extra of the median sample)] sorted."""
        labels = self.series_labels()
        out = []
        for (skey, size), samples in self.cells.items():
            vals = sorted(samples, key=lambda s: s[0])
            mid = vals[(len(vals) - 1) // 2]
            out.append((labels[skey], size, R.median([v for v, _ in samples]), len(samples),
                        mid[1], skey))
        out.sort(key=lambda x: (x[0], x[1] if isinstance(x[1], int) else -1))
        return out

    def sizes(self):
        return sorted({s for (_, s) in self.cells if isinstance(s, int)})


def build_panels(records):
    panels = {}
    for r in records:
        for pid, ylabel, value, extra in panels_of(r):
            k = (r.get("suite", "?"), pid)
            if k not in panels:
                panels[k] = Panel(k[0], pid, ylabel)
            panels[k].add(r, value, extra)

    def order(k):
        s = k[0]
        return (SUITE_ORDER.index(s) if s in SUITE_ORDER else len(SUITE_ORDER), s,
                ["latency", "bandwidth", "busbw", "algbw", "time"].index(k[1])
                if k[1] in ("latency", "bandwidth", "busbw", "algbw", "time") else 9)
    return [panels[k] for k in sorted(panels, key=order)]


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if v == 0:
            return "0"
        if abs(v) >= 1000:
            return f"{v:.0f}"
        if abs(v) >= 1:
            return f"{v:.3f}"
        return f"{v:.4g}"
    return str(v)


def table_lines(panel):
    rows = panel.rows()
    extras = []
    for row in rows:
        for k in row[4]:
            if k not in extras and any(r[4].get(k) is not None for r in rows):
                extras.append(k)
    head = ["series", "size", panel.ylabel.split(" (")[0] + " (" +
            panel.ylabel.split(" (")[-1]] + extras + ["n"]
    body = [[row[0], R.format_size(row[1]), fmt(row[2])] + [fmt(row[4].get(k)) for k in extras]
            + [str(row[3])] for row in rows]
    return head, body


def print_tables(panels, out=sys.stdout):
    for p in panels:
        head, body = table_lines(p)
        title = f"# {p.suite}: {p.ylabel}"
        const = p.constant_label()
        if const:
            title += f" ({const})"
        print(title, file=out)
        widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(head)]
        print("  ".join(h.rjust(w) if i else h.ljust(w) for i, (h, w) in
                        enumerate(zip(head, widths))), file=out)
        for b in body:
            print("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in
                            enumerate(zip(b, widths))), file=out)
        print(file=out)


# --- gnuplot -----------------------------------------------------------------------------------
def gp_str(s):
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"') + '"'


def plot(panel, out_dir, name):
    """Write name.png and name.svg (plus name.gp and name.dat, to redo or restyle the chart).
    Several sizes: lines over a log2 size axis; one size: bars, one per series."""
    rows = panel.rows()
    sizes = panel.sizes()
    title = f"{panel.suite}: {panel.ylabel.split(' (')[0]}"
    const = panel.constant_label()
    if const:
        title += f" ({const})"
    dat = os.path.join(out_dir, name + ".dat")
    gp = [
        "set termoption noenhanced",
        f"set title {gp_str(title)}",
        f"set ylabel {gp_str(panel.ylabel)}",
        "set grid",
        "set key outside right top",
        "set datafile separator '\\t'",
    ]
    series = []
    for row in rows:
        if row[0] not in series:
            series.append(row[0])
    lines = []
    per_series = {}
    for row in rows:
        per_series.setdefault(row[0], set()).add(row[1])
    # Lines only when some series has several sizes (atomics have 4 or 8 bytes per op: bars).
    if max(len(v) for v in per_series.values()) > 1:
        for i, s in enumerate(series):
            if i:
                lines.append("\n\n")
            lines.append(f"# {s}\n")
            for row in rows:
                if row[0] == s and isinstance(row[1], int) and row[1] > 0 and row[2] is not None:
                    lines.append(f"{row[1]}\t{row[2]}\n")
        tics = sizes if len(sizes) <= 12 else sizes[::(len(sizes) + 11) // 12]
        gp += [
            "set logscale x 2",
            "set xlabel 'message size (bytes)'",
            "set xtics (" + ", ".join(f"{gp_str(R.format_size(s))} {s}" for s in tics if s > 0)
            + ") rotate by -45",
        ]
        if panel.pid in ("latency", "time") or (
                rows and max(r[2] for r in rows if r[2] is not None) /
                max(min(r[2] for r in rows if r[2] is not None), 1e-12) > 50):
            gp.append("set logscale y 10")
        plots = [f"{gp_str(dat)} index {i} using 1:2 with linespoints pt 7 ps 0.6 lw 1.5 "
                 f"title {gp_str(s)}" for i, s in enumerate(series)]
    else:
        for row in rows:
            if row[2] is not None:
                lines.append(f"{row[0]}\t{row[2]}\n")
        gp += [
            "set style fill solid 0.7 border -1",
            "set boxwidth 0.6",
            "set yrange [0:*]",
            "set xtics rotate by -30",
            "set rmargin 10",
            "unset key",
        ]
        if len(sizes) == 1:
            gp.append(f"set xlabel {gp_str('size ' + R.format_size(sizes[0]) + ' B')}")
        plots = [f"{gp_str(dat)} using 0:2:xtic(1) with boxes lc rgb '#3b75af'"]
    with open(dat, "w") as f:
        f.writelines(lines)
    script = os.path.join(out_dir, name + ".gp")
    width = 960
    with open(script, "w") as f:
        f.write("\n".join(gp) + "\n")
        f.write(f"set terminal pngcairo size {width},540 font 'DejaVu Sans,10'\n")
        f.write(f"set output {gp_str(os.path.join(out_dir, name + '.png'))}\n")
        f.write("plot " + ", \\\n     ".join(plots) + "\n")
        f.write(f"set terminal svg size {width},540 dynamic font 'DejaVu Sans,10'\n")
        f.write(f"set output {gp_str(os.path.join(out_dir, name + '.svg'))}\n")
        f.write("replot\nunset output\n")
    r = subprocess.run(["gnuplot", script], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"gnuplot {script}: {r.stderr.strip()[-500:]}")


# --- HTML ----------------------------------------------------------------------------------------
CSS = """
body { font-family: 'DejaVu Sans', Arial, sans-serif; margin: 24px; color: #222; max-width: 1180px; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 18px; border-bottom: 2px solid #3b75af;
padding-bottom: 3px; margin-top: 32px; } h3 { font-size: 15px; margin: 18px 0 6px; }
table { border-collapse: collapse; font-size: 12px; margin: 6px 0 12px; }
td, th { border: 1px solid #ccc; padding: 2px 7px; text-align: right; }
th { background: #eef3f8; } td.l, th.l { text-align: left; }
table.cfg td { text-align: left; } img { max-width: 100%; border: 1px solid #ddd; }
.meta { color: #555; font-size: 13px; } .bad { color: #b00; font-weight: bold; }
details { margin: 6px 0; } summary { cursor: pointer; color: #3b75af; }
"""


def esc(s):
    return html.escape(str(s))


def config_rows(records, meta):
    c = R.config(records[0])
    rows = []
    if meta:
        rows += [("run", meta.get("run_id")), ("sweep", meta.get("sweep_name")),
                 ("description", meta.get("description")), ("sweep file", meta.get("sweep_file")),
                 ("created", meta.get("created")), ("updated", meta.get("updated")),
                 ("status", f"{meta.get('status')}: {meta.get('done')} of {meta.get('total')} "
                            f"points recorded, {meta.get('failed')} failed"),
                 ("launcher", meta.get("launcher")), ("vsym-bench", meta.get("bench")),
                 ("source commit (at sweep)", meta.get("commit"))]
        inv = meta.get("invocations") or []
        if inv:
            rows.append(("command", inv[-1].get("command")))
    rows += [("host", c.get("host")), ("hosts", " ".join(sorted(set(c.get("hosts") or []))))]
    for k in ("cpu_model", "cores", "cpus_allowed", "governor", "freq_cur_khz", "freq_max_khz",
              "numa_node", "numa_nodes", "kernel", "clock", "clock_cost_ns", "commit",
              "version"):
        if k in c:
            rows.append((k, c[k]))
    dates = sorted(r.get("date") for r in records if r.get("date"))
    if dates:
        rows.append(("records", f"{len(records)} ({dates[0]} .. {dates[-1]})"))
    return [(k, v) for k, v in rows if v not in (None, "")]


def settings_table(records):
    """Settings of the run: one column per distinct settings set (a sweep may vary them)."""
    sets = []
    for r in records:
        s = R.config(r).get("settings")
        if isinstance(s, dict) and s not in sets:
            sets.append(s)
    if not sets:
        return ""
    names = sorted({k for s in sets for k in s})
    out = ["<table class='cfg'><tr><th class='l'>setting</th>"]
    out += [f"<th class='l'>set {i + 1}</th>" for i in range(len(sets))] + ["</tr>"]
    for n in names:
        out.append(f"<tr><td>{esc(n)}</td>" + "".join(f"<td>{esc(s.get(n, ''))}</td>"
                                                      for s in sets) + "</tr>")
    out.append("</table>")
    return "".join(out)


def points_table(meta):
    pts = meta.get("points") or {}
    if not pts:
        return ""
    out = ["<table><tr><th class='l'>point</th><th class='l'>status</th><th>records</th>"
           "<th>seconds</th><th class='l'>command</th></tr>"]
    for pid in sorted(pts):
        p = pts[pid]
        st = p.get("status", "?")
        cls = " class='l bad'" if st == "failed" else " class='l'"
        out.append(f"<tr><td class='l'>{esc(pid)}</td><td{cls}>{esc(st)}</td>"
                   f"<td>{esc(p.get('records', ''))}</td><td>{esc(p.get('seconds', ''))}</td>"
                   f"<td class='l'><code>{esc(p.get('command', ''))}</code></td></tr>")
    out.append("</table>")
    return "".join(out)


def write_html(out_dir, run_path, records, meta, charts):
    title = meta.get("run_id") or os.path.basename(os.path.abspath(run_path))
    h = ["<!DOCTYPE html><html><head><meta charset='utf-8'>",
         f"<title>vsym results: {esc(title)}</title><style>{CSS}</style></head><body>",
         f"<h1>vsym benchmark results: {esc(title)}</h1>",
         f"<p class='meta'>{len(records)} records from {esc(os.path.abspath(run_path))}. "
         "Latency: median per operation (microseconds); bandwidth: GB/s = 10<sup>9</sup> "
         "bytes/s; bus bandwidth with the nccl-tests factors (results/README.md).</p>",
         "<p class='meta'>Suites: " + " &middot; ".join(
             f"<a href='#{esc(x)}'>{esc(x)}</a>"
             for x in dict.fromkeys(p.suite for p, _ in charts)) + "</p>",
         "<h2>Configuration</h2><table class='cfg'>"]
    for k, v in config_rows(records, meta):
        h.append(f"<tr><td><b>{esc(k)}</b></td><td>{esc(v)}</td></tr>")
    h.append("</table>")
    h.append("<details><summary>settings (VSYM_*)</summary>" + settings_table(records) +
             "</details>")
    if meta.get("points"):
        h.append("<details><summary>points of the sweep</summary>" + points_table(meta) +
                 "</details>")
    if meta.get("sweep_file"):
        sweep_copy = os.path.join(run_path, "sweep.toml") if os.path.isdir(run_path) else None
        if sweep_copy and os.path.exists(sweep_copy):
            with open(sweep_copy) as f:
                h.append("<details><summary>sweep file</summary><pre>" + esc(f.read()) +
                         "</pre></details>")
    suite = None
    for panel, name in charts:
        if panel.suite != suite:
            suite = panel.suite
            h.append(f"<h2 id='{esc(suite)}'>{esc(suite)}</h2>")
        h.append(f"<h3>{esc(panel.ylabel)}"
                 f"{' (' + esc(panel.constant_label()) + ')' if panel.constant_label() else ''}"
                 "</h3>")
        if name:
            h.append(f"<a href='{esc(name)}.svg'><img src='{esc(name)}.png' "
                     f"alt='{esc(panel.suite)} {esc(panel.pid)}'></a>")
        head, body = table_lines(panel)
        h.append("<details><summary>table</summary><table><tr>" +
                 "".join(f"<th{' class=l' if i == 0 else ''}>{esc(c)}</th>"
                         for i, c in enumerate(head)) + "</tr>")
        for b in body:
            h.append("<tr>" + "".join(f"<td{' class=l' if i == 0 else ''}>{esc(c)}</td>"
                                      for i, c in enumerate(b)) + "</tr>")
        h.append("</table></details>")
    h.append("</body></html>\n")
    path = os.path.join(out_dir, "index.html")
    with open(path, "w") as f:
        f.write("\n".join(h))
    return path


def report(run_path, out_dir, quiet=False):
    records, meta, _ = R.load_run(run_path)
    panels = build_panels(records)
    if not quiet:
        print_tables(panels)
    os.makedirs(out_dir, exist_ok=True)
    charts = []
    have_gnuplot = shutil.which("gnuplot") is not None
    if not have_gnuplot:
        print("vsym-report: gnuplot not found (apt-get install gnuplot-nox): tables only",
              file=sys.stderr)
    used = set()
    for p in panels:
        name = f"{p.suite}-{p.pid}"
        while name in used:
            name += "x"
        used.add(name)
        if have_gnuplot and p.rows():
            plot(p, out_dir, name)
            charts.append((p, name))
        else:
            charts.append((p, None))
    page = write_html(out_dir, run_path, records, meta, charts)
    print(f"vsym-report: {len(records)} records, {sum(1 for _, n in charts if n)} charts: "
          f"{page}", file=sys.stderr)
    return 0
