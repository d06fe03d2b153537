"""Skill-versus-budget curves of a comparison, as one SVG."""

from __future__ import annotations

import html

from .compare import Comparison

W, H, PAD = 720, 360, 60
COLOURS = ["#1f4fd1", "#d1441f", "#2a9d3c", "#8e44ad", "#c49a00", "#555555"]


def curves_svg(c: Comparison) -> str:
    points = [p for curve in c.curves.values() for p in curve]
    x1 = max((x for x, _ in points), default=1) or 1
    y1 = max((y for _, y in points), default=1) or 1

    def sx(x: float) -> float:
        return PAD + x / x1 * (W - 2 * PAD)

    def sy(y: float) -> float:
        return H - PAD - y / y1 * (H - 2 * PAD)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="Helvetica" font-size="12">',
        f'<text x="{W / 2}" y="20" text-anchor="middle" font-weight="bold">Hidden skill of the final pick vs budget '
        f"({c.settings.mode}, {c.seeds} seeds, corr={c.landscape.corr})</text>",
        f'<line x1="{PAD}" y1="{H - PAD}" x2="{W - PAD}" y2="{H - PAD}" stroke="#333"/>',
        f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{H - PAD}" stroke="#333"/>',
        f'<text x="{W / 2}" y="{H - 15}" text-anchor="middle">budget (evaluations)</text>',
        f'<text x="{PAD - 8}" y="{sy(y1) + 4:.0f}" text-anchor="end">{y1:.2f}</text>',
        f'<text x="{PAD - 8}" y="{H - PAD + 4}" text-anchor="end">0</text>',
        f'<text x="{W - PAD}" y="{H - PAD + 16}" text-anchor="middle">{x1:g}</text>',
    ]
    for i, (name, curve) in enumerate(c.curves.items()):
        colour = COLOURS[i % len(COLOURS)]
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in curve)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<text x="{W - PAD - 150}" y="{PAD + 16 * i}" fill="{colour}">{html.escape(name)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)
