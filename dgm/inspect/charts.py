"""Small inline-SVG charts: a line with an optional band, no plotting library needed."""

from __future__ import annotations

import html
from collections.abc import Sequence

W, H, PAD = 640, 260, 56
MAX_POINTS = 2 * W  # more than the chart has pixels for would only make the page heavier


def _thin(seq: Sequence) -> Sequence:
    """At most MAX_POINTS, evenly spaced, the last one kept."""
    if len(seq) <= MAX_POINTS:
        return seq
    step = len(seq) / MAX_POINTS
    return [seq[int(i * step)] for i in range(MAX_POINTS)] + [seq[-1]]


def _short(value: float) -> str:
    for size, suffix in ((1e6, "M"), (1e3, "k")):
        if abs(value) >= size:
            return f"{value / size:.3g}{suffix}"
    return f"{value:.3g}"


def line_chart(
    points: Sequence[tuple[float, float]],
    title: str,
    x_label: str,
    y_label: str,
    band: Sequence[tuple[float, float, float]] = (),
    y_max: float | None = None,
) -> str:
    if not points:
        return f'<p class="empty">{html.escape(title)}: no data yet</p>'
    points, band = _thin(points), _thin(band)
    xs = [p[0] for p in points]
    x0, x1 = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1
    y1 = y_max if y_max is not None else max([p[1] for p in points] + [hi for *_, hi in band]) or 1.0

    def sx(x: float) -> float:
        return PAD + (x - x0) / (x1 - x0) * (W - 2 * PAD)

    def sy(y: float) -> float:
        return H - PAD - (y / y1) * (H - 2 * PAD) if y1 else H - PAD

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="Helvetica, Arial" '
        f'font-size="11" role="img" aria-label="{html.escape(title)}">',
        f'<text x="{W / 2}" y="16" text-anchor="middle" font-size="13" font-weight="bold">{html.escape(title)}</text>',
        f'<line x1="{PAD}" y1="{H - PAD}" x2="{W - PAD}" y2="{H - PAD}" stroke="#444"/>',
        f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{H - PAD}" stroke="#444"/>',
    ]
    for frac in (0, 0.5, 1):
        y = y1 * frac
        parts.append(f'<text x="{PAD - 6}" y="{sy(y) + 4:.1f}" text-anchor="end">{_short(y)}</text>')
    for frac in (0, 0.5, 1):
        x = x0 + (x1 - x0) * frac
        parts.append(f'<text x="{sx(x):.1f}" y="{H - PAD + 16}" text-anchor="middle">{x:.3g}</text>')
    parts.append(f'<text x="{W / 2}" y="{H - 8}" text-anchor="middle">{html.escape(x_label)}</text>')
    parts.append(
        f'<text x="14" y="{H / 2}" text-anchor="middle" transform="rotate(-90 14 {H / 2})">'
        f"{html.escape(y_label)}</text>"
    )
    if band:
        upper = " ".join(f"{sx(x):.1f},{sy(hi):.1f}" for x, _, hi in band)
        lower = " ".join(f"{sx(x):.1f},{sy(lo):.1f}" for x, lo, _ in reversed(band))
        parts.append(f'<polygon points="{upper} {lower}" fill="#1f4fd1" fill-opacity="0.15" stroke="none"/>')
    path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in points)
    parts.append(f'<polyline points="{path}" fill="none" stroke="#1f4fd1" stroke-width="2"/>')
    parts.append("</svg>")
    return "".join(parts)
