#!/usr/bin/env python3
"""Plots nanoseconds per slice against table size from bench/run.sh's
Google Benchmark JSON files (plan_<N>.json, incremental_<N>.json) and
writes RESULTS/ns_per_slice.svg.

    plot.py bench/results

Lines: lakegc's full plan, the same on 2 threads, the incremental plan at
1% touched (per slice of the whole table), and the two baselines of the same
run: the naive reference planner and the floor (one read of each slice's
base instant). Both axes are logarithmic. Python standard library only: the
SVG is written by hand.
"""
import glob
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import load_gb  # noqa: E402

SERIES = [
    # label, file prefix, benchmark name pattern, colour, dashed
    ("lakegc plan_clean (full)", "plan", "plan_full/{n}", "#1f77b4", False),
    ("lakegc, 2 threads", "plan", "threads/{n}/threads:2", "#17becf", False),
    ("lakegc incremental, 1% touched", "incremental", "incremental/inc/{n}", "#2ca02c", False),
    ("baseline: reference planner", "plan", "reference_planner/{n}", "#d62728", True),
    ("baseline: floor (read base instants)", "plan", "floor/{n}", "#7f7f7f", True),
]


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "bench/results"
    sizes = sorted(int(re.search(r"plan_(\d+)\.json", p).group(1))
                   for p in glob.glob(os.path.join(out_dir, "plan_*.json")))
    data = []
    for label, prefix, pattern, colour, dashed in SERIES:
        pts = []
        for n in sizes:
            row = load_gb(os.path.join(out_dir, f"{prefix}_{n}.json")).get(pattern.format(n=n))
            if row and row.get("slices"):
                pts.append((row["slices"], row["seconds"] / row["slices"] * 1e9))
        if pts:
            data.append((label, colour, dashed, pts))
    if not data:
        sys.exit("plot.py: no plan_*.json in " + out_dir)

    W, H, L, R, T, B = 840, 470, 80, 300, 40, 60
    xs = [x for _, _, _, pts in data for x, _ in pts]
    ys = [y for _, _, _, pts in data for _, y in pts]
    # A little room right of the largest table (10.1M slices would otherwise
    # open a whole empty decade up to 1e8).
    x0, x1 = math.floor(math.log10(min(xs))), math.log10(max(xs)) + 0.15
    y0, y1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    x1 = max(x1, x0 + 1)
    if y1 == y0:
        y1 += 1

    def px(x):
        return L + (math.log10(x) - x0) / (x1 - x0) * (W - L - R)

    def py(y):
        return H - B - (math.log10(y) - y0) / (y1 - y0) * (H - T - B)

    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" '
           f'font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{(W - R + L) / 2}" y="22" text-anchor="middle" font-size="14">'
           'Clean planning: nanoseconds per slice against table size</text>']
    for e in range(x0, math.floor(x1) + 1):
        x = px(10 ** e)
        svg.append(f'<line x1="{x:.1f}" y1="{T}" x2="{x:.1f}" y2="{H - B}" stroke="#ddd"/>')
        svg.append(f'<text x="{x:.1f}" y="{H - B + 18}" text-anchor="middle">1e{e}</text>')
    for e in range(y0, y1 + 1):
        y = py(10 ** e)
        svg.append(f'<line x1="{L}" y1="{y:.1f}" x2="{W - R}" y2="{y:.1f}" stroke="#ddd"/>')
        svg.append(f'<text x="{L - 8}" y="{y + 4:.1f}" text-anchor="end">{10 ** e:g}</text>')
    svg.append(f'<rect x="{L}" y="{T}" width="{W - L - R}" height="{H - T - B}" fill="none" stroke="#333"/>')
    svg.append(f'<text x="{(W - R + L) / 2}" y="{H - 15}" text-anchor="middle">file slices in the table</text>')
    svg.append(f'<text x="18" y="{(H - B + T) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 18 {(H - B + T) / 2})">ns per slice (wall clock)</text>')
    # The 100 ns target.
    if y0 <= 2 <= y1:
        svg.append(f'<line x1="{L}" y1="{py(100):.1f}" x2="{W - R}" y2="{py(100):.1f}" stroke="#ff7f0e" '
                   'stroke-dasharray="2,3"/>')
        svg.append(f'<text x="{W - R - 4}" y="{py(100) - 4:.1f}" text-anchor="end" fill="#ff7f0e">'
                   'target: 100 ns/slice</text>')
    for i, (label, colour, dashed, pts) in enumerate(data):
        dash = ' stroke-dasharray="6,4"' if dashed else ""
        path = " ".join(f"{'M' if j == 0 else 'L'}{px(x):.1f},{py(y):.1f}" for j, (x, y) in enumerate(pts))
        svg.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        for x, y in pts:
            svg.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>')
        ly = T + 10 + i * 20
        svg.append(f'<line x1="{W - R + 15}" y1="{ly}" x2="{W - R + 40}" y2="{ly}" stroke="{colour}" '
                   f'stroke-width="2"{dash}/>')
        svg.append(f'<text x="{W - R + 45}" y="{ly + 4}">{label}</text>')
    svg.append("</svg>")
    path = os.path.join(out_dir, "ns_per_slice.svg")
    with open(path, "w") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()
