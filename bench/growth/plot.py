#!/usr/bin/env python3
"""Per-axis growth exponents of bench/growth.sh's CSV, and their SVG plot (standard library only)."""
import csv
import math
import sys

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"]


def read(path):
    """Rows by axis, in file order; the header comment lines say where and when it ran."""
    with open(path) as f:
        notes = [line[2:].strip() for line in f if line.startswith("#")]
    with open(path) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    axes = {}
    for r in rows:
        axes.setdefault(r["axis"], []).append(r)
    return notes, axes


def answered(r):
    return r["seconds"] not in ("", "0") and not r["answer"].startswith(("Unknown", "error", "skipped"))


def capped(r):
    return r["seconds"] not in ("", "0") and r["answer"].startswith(("Unknown", "error"))


def fit(points):
    """Least-squares slope of log y against log x: the exponent b of y ~ a x^b."""
    pts = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    if len({p[0] for p in pts}) < 2:
        return None
    n = len(pts)
    mx = sum(p[0] for p in pts) / n
    my = sum(p[1] for p in pts) / n
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx


def exponents(axes):
    """Per axis: time and memory exponents over every answered point, the same over the two
    largest (a curve that steepens shows there), and time against instructions checked."""
    out = {}
    for axis, rows in axes.items():
        ok = [r for r in rows if answered(r)]
        t = fit([(float(r["value"]), float(r["seconds"])) for r in ok])
        m = fit([(float(r["value"]), float(r["mib"])) for r in ok])
        t2 = fit([(float(r["value"]), float(r["seconds"])) for r in ok[-2:]])
        m2 = fit([(float(r["value"]), float(r["mib"])) for r in ok[-2:]])
        ti = fit([(float(r["instructions"]), float(r["seconds"])) for r in ok if r["instructions"]])
        span = f"{ok[0]['value']}-{ok[-1]['value']}" if ok else "-"
        out[axis] = (t, m, span, len(ok), t2, m2, ti)
    return out


def panel(x0, y0, w, h, title, axes, key, fits, which):
    """One log-log panel: knob value against seconds or MiB; hollow marks are capped runs."""
    pts = [(float(r["value"]), float(r[key])) for rows in axes.values() for r in rows
           if answered(r) or capped(r)]
    if not pts:
        return []
    lx = [math.log2(p[0]) for p in pts]
    ly = [math.log10(max(p[1], 1e-3)) for p in pts]
    xmin, xmax = 0.0, float(max(math.ceil(max(lx)), 1))
    ymin, ymax = math.floor(min(ly)), math.ceil(max(ly))
    if ymax == ymin:
        ymax += 1

    def sx(v):
        return x0 + 50 + (math.log2(v) - xmin) / (xmax - xmin) * (w - 70)

    def sy(v):
        return y0 + h - 40 - (math.log10(max(v, 1e-3)) - ymin) / (ymax - ymin) * (h - 70)

    s = [f'<text x="{x0 + w / 2}" y="{y0 + 18}" text-anchor="middle" font-weight="bold">{title}</text>',
         f'<rect x="{x0 + 50}" y="{y0 + 30}" width="{w - 70}" height="{h - 70}" fill="none" stroke="#888"/>']
    for e in range(int(ymin), int(ymax) + 1):
        y = sy(10 ** e)
        s.append(f'<line x1="{x0 + 50}" y1="{y:.1f}" x2="{x0 + w - 20}" y2="{y:.1f}" stroke="#ddd"/>')
        s.append(f'<text x="{x0 + 45}" y="{y + 4:.1f}" text-anchor="end" font-size="11">{10 ** e:g}</text>')
    for e in range(0, int(math.ceil(xmax)) + 1):
        x = sx(2 ** e)
        s.append(f'<line x1="{x:.1f}" y1="{y0 + 30}" x2="{x:.1f}" y2="{y0 + h - 40}" stroke="#eee"/>')
        s.append(f'<text x="{x:.1f}" y="{y0 + h - 24}" text-anchor="middle" font-size="11">{2 ** e}</text>')
    s.append(f'<text x="{x0 + w / 2}" y="{y0 + h - 6}" text-anchor="middle" font-size="12">knob value (log 2)</text>')
    for i, (axis, rows) in enumerate(axes.items()):
        c = COLORS[i % len(COLORS)]
        ok = [(float(r["value"]), float(r[key])) for r in rows if answered(r)]
        if len(ok) > 1:
            line = " ".join(f"{sx(a):.1f},{sy(b):.1f}" for a, b in ok)
            s.append(f'<polyline points="{line}" fill="none" stroke="{c}" stroke-width="2"/>')
        for a, b in ok:
            s.append(f'<circle cx="{sx(a):.1f}" cy="{sy(b):.1f}" r="3.5" fill="{c}"/>')
        for r in rows:
            if capped(r):
                a, b = float(r["value"]), float(r[key])
                s.append(f'<circle cx="{sx(a):.1f}" cy="{sy(b):.1f}" r="5" fill="white" stroke="{c}" stroke-width="2"/>')
                if ok:
                    s.append(f'<line x1="{sx(ok[-1][0]):.1f}" y1="{sy(ok[-1][1]):.1f}" x2="{sx(a):.1f}" '
                             f'y2="{sy(b):.1f}" stroke="{c}" stroke-dasharray="4 3"/>')
        b = fits[axis][which]
        label = f"{axis}: x^{b:.2f}" if b is not None else f"{axis}: -"
        s.append(f'<text x="{x0 + 60}" y="{y0 + 46 + 14 * i}" font-size="11" fill="{c}">{label}</text>')
    return s


def main():
    path, svg = sys.argv[1], sys.argv[2]
    notes, axes = read(path)
    fits = exponents(axes)
    w, h = 520, 420
    body = panel(0, 30, w, h, "ptxmc kernel wall time (s)", axes, "seconds", fits, 0)
    body += panel(w, 30, w, h, "peak resident memory (MiB)", axes, "mib", fits, 1)
    note = notes[1] if len(notes) > 1 else ""
    doc = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * w}" height="{h + 60}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{2 * w}" height="{h + 60}" fill="white"/>',
           '<text x="10" y="18" font-size="13">Growth of ptxmc kernel per knob, each alone from the base '
           'point (bench/growth.sh); filled: answered, hollow and dashed: capped (Unknown)</text>',
           f'<text x="10" y="{h + 52}" font-size="10" fill="#555">{note}</text>'] + body + ["</svg>"]
    with open(svg, "w") as f:
        f.write("\n".join(doc) + "\n")
    print("| axis | range answered | points | time exponent | memory exponent "
          "| last step: time, memory | time vs instructions |")
    print("|---|---|---|---|---|---|---|")
    for axis, (t, m, span, n, t2, m2, ti) in fits.items():
        fmt = lambda b: f"{b:.2f}" if b is not None else "-"
        print(f"| {axis} | {span} | {n} | {fmt(t)} | {fmt(m)} | {fmt(t2)}, {fmt(m2)} | {fmt(ti)} |")


if __name__ == "__main__":
    main()
