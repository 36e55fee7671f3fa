"""vsym-report --compare BASE NEW: match records by configuration, ratio per point, regressions.

A point's figure is its headline metric (records.metric: the median latency, the average or bus
bandwidth); with several records of one configuration in a run (repeats), the median of them.
A point regressed when it got worse by more than the threshold plus the run-to-run spread of
BASE for that point ((max - min) / median of BASE's repeats; 0 without repeats)."""

import sys

import records as R


def group(records):
    out = {}
    for r in records:
        m = R.metric(r)
        if m is None:
            continue
        out.setdefault(R.key(r), []).append((r, m))
    return out


def compare(base_path, new_path, threshold_pct, out=sys.stdout):
    base_recs, _, _ = R.load_run(base_path)
    new_recs, _, _ = R.load_run(new_path)
    base = group(base_recs)
    new = group(new_recs)
    common = [k for k in base if k in new]
    only_base = [k for k in base if k not in new]
    only_new = [k for k in new if k not in base]
    if not common:
        print(f"vsym-report: no configuration of {base_path} is in {new_path}: nothing to "
              "compare (suites, sizes, ranks, transports or settings differ)", file=sys.stderr)
        return 2
    rows = []
    for k in common:
        bvals = [m[1] for _, m in base[k]]
        nvals = [m[1] for _, m in new[k]]
        name, _, unit, higher = base[k][0][1]
        b = R.median(bvals)
        n = R.median(nvals)
        spread = (max(bvals) - min(bvals)) / b if len(bvals) > 1 and b > 0 else 0.0
        tol = threshold_pct / 100.0 + spread
        if b <= 0 or n <= 0:
            change = 0.0      # a zero figure (a tiny latency rounded down) cannot be compared
        elif higher:
            change = b / n - 1.0          # slowdown: the new bandwidth is lower
        else:
            change = n / b - 1.0          # slowdown: the new latency is higher
        verdict = "REGRESSED" if change > tol else ("improved" if change < -tol else "ok")
        d = dict(zip(R.KEY_FIELDS, k))
        rows.append((R.point_label(d), name, unit, b, n, n / b if b else float("nan"),
                     change, tol, len(bvals), verdict))
    rows.sort(key=lambda x: x[0])
    head = ["point", "metric", "base", "new", "new/base", "slowdown", "tolerance", "verdict"]
    body = []
    for label, name, unit, b, n, ratio, change, tol, nb, verdict in rows:
        body.append([label, f"{name} ({unit})", f"{b:.4g}", f"{n:.4g}", f"{ratio:.3f}",
                     f"{change * 100:+.1f}%", f"{tol * 100:.1f}%" + (f" ({nb} runs)" if nb > 1
                                                                     else ""), verdict])
    widths = [max(len(h), *(len(r[i]) for r in body)) for i, h in enumerate(head)]
    print("  ".join(h.ljust(w) if i < 2 else h.rjust(w) for i, (h, w) in
                    enumerate(zip(head, widths))), file=out)
    for r in body:
        print("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in
                        enumerate(zip(r, widths))), file=out)
    regressed = [r for r in rows if r[-1] == "REGRESSED"]
    improved = sum(1 for r in rows if r[-1] == "improved")
    print(file=out)
    for kind, keys in (("only in BASE", only_base), ("only in NEW", only_new)):
        if keys:
            print(f"# {len(keys)} configuration(s) {kind}, not compared: " +
                  "; ".join(R.point_label(dict(zip(R.KEY_FIELDS, k))) for k in keys[:5]) +
                  (" ..." if len(keys) > 5 else ""), file=out)
    print(f"# {len(rows)} points compared (threshold {threshold_pct:g}% plus BASE's spread): "
          f"{len(regressed)} regressed, {improved} improved", file=out)
    for r in regressed:
        print(f"REGRESSED: {r[0]}: {r[1]} {r[3]:.4g} -> {r[4]:.4g} {r[2]} "
              f"({r[6] * 100:+.1f}% slower, tolerance {r[7] * 100:.1f}%)", file=out)
    return 1 if regressed else 0
