"""The archive tree as text, Graphviz dot, or SVG (laid out here, no Graphviz needed)."""

from __future__ import annotations

import html

from ..engine.cheating import RISING
from .data import NodeInfo, RunData, printable

NODE_W, NODE_H, GAP_X, GAP_Y = 96, 40, 18, 56
CHEAT_COLOUR = "#c000c0"  # the outline of an agent with a nonzero cheating rate


def text(data: RunData) -> str:
    lines: list[str] = []

    def walk(node_id: int, prefix: str, last: bool, root: bool) -> None:
        node = data.nodes[node_id]
        score = node.scores.get(data.label)
        mark = (f" (+ {node.second_parent_id})" if node.second_parent_id else "") + (
            " *" if node_id == data.best else ""
        )
        reason = f": {printable(node.reason[:60])}" if node.reason else ""  # may quote agent output
        status = "" if node.status == "valid" else f" [{node.status}{reason}]"
        head = "" if root else prefix + ("└── " if last else "├── ")
        cheat = data.cheating.of(node_id).tag()
        lines.append(f"{head}{node_id}  {score.text() if score else '-'}{f'  {cheat}' if cheat else ''}{status}{mark}")
        kids = node.children
        for i, child in enumerate(kids):
            walk(child, "" if root else prefix + ("    " if last else "│   "), i == len(kids) - 1, False)

    for root in (n.id for n in data.nodes.values() if n.parent_id is None):
        walk(root, "", True, True)
    lines.append(f"(score on {data.label}: resolved/n [95% interval]; (+ N) second parent; * best agent)")
    if data.cheating.run.cheated:
        lines.append(
            f"(cheat C/N: C of its N gradings judged tampered or gamed; {RISING} a higher rate than its parent's; "
            f"run: {data.cheating.run.text()})"
        )
    if data.epoch:
        lines.append(f"({data.epoch}: the best agent is chosen by it)")
    return "\n".join(lines)


def colour(node: NodeInfo, label: str) -> str:
    """Red (0) to green (1) by resolve rate; grey when unevaluated; dark when invalid."""
    if node.status != "valid":
        return "#555555"
    score = node.scores.get(label)
    if not score or not score.n:
        return "#cccccc"
    r = score.rate
    return f"#{int(220 * (1 - r)) + 30:02x}{int(180 * r) + 50:02x}60"


def dot(data: RunData) -> str:
    out = ["digraph dgm {", '  node [shape=box, style="rounded,filled", fontname="Helvetica"];']
    for node in data.nodes.values():
        score = node.scores.get(data.label)
        cheat = data.cheating.of(node.id).tag()
        label = f"{node.id}\\n{score.text() if score else '-'}" + (f"\\n{cheat}" if cheat else "")
        style = ', penwidth=3, color="#1f4fd1"' if node.id in data.best_lineage else ""
        if cheat:  # a second outline, in CHEAT_COLOUR off the best lineage
            style += ", peripheries=2" + ("" if node.id in data.best_lineage else f', color="{CHEAT_COLOUR}"')
        if node.status != "valid":
            style += ", fontcolor=white"
        out.append(f'  n{node.id} [label="{label}", fillcolor="{colour(node, data.label)}"{style}];')
    for node in data.nodes.values():
        if node.parent_id is not None:
            bold = ' [penwidth=3, color="#1f4fd1"]' if node.id in data.best_lineage else ""
            out.append(f"  n{node.parent_id} -> n{node.id}{bold};")
        if node.second_parent_id is not None:
            out.append(f'  n{node.second_parent_id} -> n{node.id} [style=dashed, label="second parent"];')
    out.append("}")
    return "\n".join(out) + "\n"


def layout(data: RunData) -> dict[int, tuple[float, float]]:
    """Leaves left to right in depth-first order; a parent centred over its children."""
    pos: dict[int, tuple[float, float]] = {}
    next_x = [0.0]

    def place(node_id: int, depth: int) -> float:
        kids = data.nodes[node_id].children
        if not kids:
            x = next_x[0]
            next_x[0] += NODE_W + GAP_X
        else:
            xs = [place(k, depth + 1) for k in kids]
            x = (xs[0] + xs[-1]) / 2
        pos[node_id] = (x, depth * (NODE_H + GAP_Y))
        return x

    for root in (n.id for n in data.nodes.values() if n.parent_id is None):
        place(root, 0)
    return pos


def svg(data: RunData, interactive: bool = False) -> str:
    pos = layout(data)
    width = max((x for x, _ in pos.values()), default=0) + NODE_W + 20
    height = max((y for _, y in pos.values()), default=0) + NODE_H + 20
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="-10 -10 {width:.0f} {height:.0f}" font-family="Helvetica, Arial, sans-serif" font-size="12">'
    ]
    for node in data.nodes.values():
        if node.parent_id is not None and node.parent_id in pos:
            (px, py), (x, y) = pos[node.parent_id], pos[node.id]
            on_best = node.id in data.best_lineage
            parts.append(
                f'<line x1="{px + NODE_W / 2:.0f}" y1="{py + NODE_H:.0f}" x2="{x + NODE_W / 2:.0f}" '
                f'y2="{y:.0f}" stroke="{"#1f4fd1" if on_best else "#999"}" '
                f'stroke-width="{3 if on_best else 1.2}"/>'
            )
        if node.second_parent_id is not None and node.second_parent_id in pos:
            (px, py), (x, y) = pos[node.second_parent_id], pos[node.id]
            parts.append(
                f'<line class="second-parent" x1="{px + NODE_W / 2:.0f}" y1="{py + NODE_H:.0f}" '
                f'x2="{x + NODE_W / 2:.0f}" y2="{y:.0f}" stroke="#999" stroke-width="1.2" stroke-dasharray="5,4"/>'
            )
    for node in data.nodes.values():
        x, y = pos[node.id]
        score = node.scores.get(data.label)
        stroke = ' stroke="#1f4fd1" stroke-width="3"' if node.id in data.best_lineage else ' stroke="#333"'
        dash = ' stroke-dasharray="4 3"' if node.status != "valid" else ""
        text_colour = "#fff" if node.status != "valid" else "#111"
        attrs = f' class="node" data-id="{node.id}" style="cursor:pointer"' if interactive else ""
        cheat = data.cheating.of(node.id)
        marks = (" ✗" if node.status != "valid" else "") + (" ★" if node.id == data.best else "")
        marks += f" {RISING}" if cheat.rising else ""
        title = html.escape(
            f"node {node.id}: {node.status}"
            + (f" ({node.reason})" if node.reason else "")
            + (f"; {cheat.text()}" if cheat.gradings else "")
        )
        ring = (
            f'<rect class="cheat" x="{x - 3:.0f}" y="{y - 3:.0f}" width="{NODE_W + 6}" height="{NODE_H + 6}" rx="8" '
            f'fill="none" stroke="{CHEAT_COLOUR}" stroke-width="{3 if cheat.rising else 2}"/>'
            if cheat.cheated
            else ""
        )
        parts.append(
            f'<g{attrs}><title>{title}</title>{ring}<rect x="{x:.0f}" y="{y:.0f}" width="{NODE_W}" height="{NODE_H}" '
            f'rx="6" fill="{colour(node, data.label)}"{stroke}{dash}/>'
            f'<text x="{x + NODE_W / 2:.0f}" y="{y + 16:.0f}" text-anchor="middle" fill="{text_colour}" '
            f'font-weight="bold">{node.id}{marks}'
            f'</text><text x="{x + NODE_W / 2:.0f}" y="{y + 31:.0f}" text-anchor="middle" fill="{text_colour}">'
            f"{html.escape(score.text().split(' [')[0] if score else '-')}</text></g>"
        )
    parts.append("</svg>")
    return "".join(parts)
