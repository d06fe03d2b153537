"""Self-contained HTML pages (no network: styles, data and script are inline): the
interactive tree, and the run report."""

from __future__ import annotations

import html
import json
from typing import Any

from archive import Archive

from ..engine import final
from ..engine.cheating import RISING
from ..engine.status import lines, summary
from ..engine.view import NodeStats
from . import charts, tree
from .data import RunData, printable
from .flags import cheat_line, cheating_table, flags_section

STYLE = """
body { font-family: Helvetica, Arial, sans-serif; margin: 24px; color: #111; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 28px; }
.tree { overflow: auto; border: 1px solid #ddd; padding: 8px; }
#details { white-space: pre-wrap; font-family: monospace; font-size: 12px; background: #f6f6f6;
           border: 1px solid #ddd; padding: 10px; min-height: 60px; }
table { border-collapse: collapse; font-size: 12px; }
td, th { border: 1px solid #ccc; padding: 3px 6px; text-align: center; }
td.ok { background: #7fd18b; } td.bad { background: #f1948a; } td.none { background: #fff; }
.legend span { display: inline-block; padding: 2px 8px; margin-right: 6px; border-radius: 4px; }
pre.summary { background: #f6f6f6; padding: 10px; }
"""

SCRIPT = """
const details = JSON.parse(document.getElementById('node-data').textContent);
function show(id) {
  const d = details[id];
  if (!d) { return; }
  const scores = Object.entries(d.scores).map(([k, v]) => '  ' + k + ': ' + v).join('\\n') || '  (none)';
  document.getElementById('details').textContent =
    'node ' + id + ' (' + d.status + (d.reason ? ': ' + d.reason : '') + ')' +
    '\\nparent: ' + (d.parent === null ? '-' : d.parent) +
    (d.second_parent === null ? '' : '\\nsecond parent: ' + d.second_parent + ' (recombined)') +
    '\\nscores:\\n' + scores + (d.cheating ? '\\n' + d.cheating : '') +
    '\\n\\nmeta agent: ' + (d.summary || '-') + '\\nproposal: ' + (d.proposal || '-') +
    '\\n\\ndiff vs parent:\\n' + (d.diff || '(none)');
}
document.querySelectorAll('g.node').forEach(g => g.addEventListener('click', () => show(g.dataset.id)));
"""

DIFF_LIMIT = 20_000


def _node_details(archive: Archive, data: RunData) -> dict[str, Any]:
    out = {}
    for node in data.nodes.values():
        diff = ""
        if node.parent_id is not None:
            diff = archive.diff(data.nodes[node.parent_id].snapshot, node.snapshot)[:DIFF_LIMIT]
        out[str(node.id)] = {
            "status": node.status,
            "reason": node.reason,
            "parent": node.parent_id,
            "second_parent": node.second_parent_id,
            "scores": {label: score.text() for label, score in node.scores.items()},
            "cheating": cheat_line(data, node.id),
            "summary": node.origin.get("summary", ""),
            "proposal": node.origin.get("proposal", ""),
            "citations": citation_lines(node.origin),
            "diff": diff,
        }
    return out


def _json_script(value: Any) -> str:
    return json.dumps(value).replace("</", "<\\/")


def _page(title: str, body: str, script: str = "", data: Any = None) -> str:
    data_tag = f'<script type="application/json" id="node-data">{_json_script(data)}</script>' if data else ""
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f'<link rel="icon" href="data:,"><style>{STYLE}</style></head><body>{body}{data_tag}'
        f"{f'<script>{script}</script>' if script else ''}</body></html>"
    )


LEGEND = (
    '<p class="legend"><span style="background:#fa3260">0% resolved</span>'
    '<span style="background:#8c8c60">50%</span><span style="background:#1ee660">100%</span>'
    '<span style="background:#cccccc">not evaluated</span>'
    '<span style="background:#555555;color:#fff">invalid ✗</span> ★ best agent, blue: its lineage; '
    f'<span style="border:2px solid {tree.CHEAT_COLOUR}">cheating</span> some gradings judged tampered or gamed, '
    f"{RISING} a higher cheating rate than its parent's</p>"
)


def tree_page(archive: Archive, data: RunData) -> str:
    body = (
        f"<h1>dgm archive tree</h1><p>Scores on {html.escape(data.label)}"
        f"{'; ' + html.escape(data.epoch) if data.epoch else ''}. Click a node for details.</p>"
        f'{LEGEND}<div class="tree">{tree.svg(data, interactive=True)}</div><h2>Node</h2>'
        f'<div id="details">Click a node.</div>'
    )
    return _page("dgm tree", body, SCRIPT, _node_details(archive, data))


def progress_series(archive: Archive, label: str, rule: str = "quantile") -> tuple[list, list]:
    """After each evaluation on `label`: the agent the final rule `rule` picks (among the
    agents valid now), its value under that rule, and its 95% Wilson interval."""
    status = dict(archive.db.execute("SELECT id, status FROM nodes").fetchall())
    counts: dict[int, list[int]] = {}
    pick = final.FinalPick(rule)
    points, band = [], []
    rows = archive.db.execute("SELECT node_id, resolved FROM evaluations WHERE benchmark = ? ORDER BY id", [label])
    for spent, (node_id, resolved) in enumerate(rows, start=1):
        c = counts.setdefault(node_id, [0, 0])
        c[0] += resolved
        c[1] += 1
        pick.update(NodeStats(node_id, None, status.get(node_id, "valid"), 0, c[0], c[1] - c[0], 0, 0, 0, frozenset()))
        if pick.best is None:
            continue
        s, n = counts[pick.best]
        lo, hi = final.wilson_interval(s, n)
        points.append((spent, pick.keys[pick.best][0]))
        band.append((spent, lo, hi))
    return points, band


def usage_series(archive: Archive) -> tuple[list, list]:
    rows = archive.db.execute(
        "SELECT created_at, prompt_tokens + completion_tokens, cost_usd FROM fm_calls ORDER BY id"
    ).fetchall()
    if not rows:
        return [], []
    start, tokens, usd, t_points, u_points = rows[0][0], 0, 0.0, [], []
    for created, tok, cost in rows:
        tokens += tok
        usd += cost
        t_points.append(((created - start) / 60, tokens))
        u_points.append(((created - start) / 60, usd))
    return t_points, u_points


def matrix(archive: Archive, data: RunData) -> str:
    results: dict[tuple[int, str], bool] = {}
    for node_id, task, resolved in archive.db.execute(
        "SELECT node_id, task_id, resolved FROM evaluations WHERE benchmark = ? ORDER BY id", [data.label]
    ):
        results[(node_id, task)] = bool(resolved)
    tasks = sorted({t for _, t in results})
    nodes = sorted({n for n, _ in results})
    if not results:
        return '<p class="empty">no evaluations yet</p>'
    head = "".join(f'<th title="{html.escape(t)}">{i + 1}</th>' for i, t in enumerate(tasks))
    rows = []
    for n in nodes:
        cells = "".join(
            f'<td class="{"none" if (n, t) not in results else "ok" if results[(n, t)] else "bad"}" '
            f'title="node {n} on {html.escape(t)}"></td>'
            for t in tasks
        )
        rows.append(f"<tr><th>{n}</th>{cells}</tr>")
    key = "".join(f"<li>{i + 1}: {html.escape(t)}</li>" for i, t in enumerate(tasks))
    return (
        f"<table><tr><th>node \\ task</th>{head}</tr>{''.join(rows)}</table>"
        f'<details><summary>tasks</summary><ol style="list-style:none">{key}</ol></details>'
    )


def citation_lines(origin: dict[str, Any]) -> list[str]:
    """The diagnosis's citations as the engine checked them, one line each (agent-written
    text: printable characters only; escape it where it goes into markup)."""
    out = []
    for c in origin.get("citations") or []:
        if not isinstance(c, dict):
            continue
        cited = " ".join(
            f"{key} {c[key]!r}" if key in ("test", "log") else str(c[key])
            for key in ("task_id", "claim", "test", "log")
            if c.get(key)
        )
        mark = "confirmed" if c.get("confirmed") else "REFUTED"
        out.append(f"[{mark}] {cited}" + ("" if c.get("confirmed") else f": {c.get('why', '')}"))
    return [printable(line) for line in out]


def transfer_table(data: RunData) -> str:
    rows = [
        (n.id, label, score)
        for n in data.nodes.values()
        for label, score in sorted(n.scores.items())
        if label != data.label
    ]
    if not rows:
        return '<p class="empty">no transfer evaluations yet (dgm eval)</p>'
    body = "".join(
        f"<tr><td>{i}</td><td>{html.escape(label)}</td><td>{s.resolved}/{s.n}</td><td>{s.rate:.2f}</td>"
        f"<td>{s.interval[0]:.2f}-{s.interval[1]:.2f}</td></tr>"
        for i, label, s in rows
    )
    return (
        "<table><tr><th>node</th><th>benchmark@model</th><th>resolved</th><th>rate</th><th>95% interval</th>"
        f"</tr>{body}</table>"
    )


def report_page(archive: Archive, data: RunData, config) -> str:
    from ..engine.status import task_order

    tasks = task_order(
        sorted({t for (t,) in archive.db.execute("SELECT DISTINCT task_id FROM evaluations")}), config.seed
    )
    points, band = progress_series(archive, data.label, config.final_rule)
    tokens, usd = usage_series(archive)
    overview = html.escape("\n".join(lines(summary(archive, config, tasks))))
    body = (
        f'<h1>dgm run report</h1><pre class="summary">{overview}'
        "</pre><h2>Progress</h2>"
        + charts.line_chart(
            points,
            f"Final pick on {data.label} by the run's rule, {final.RULE_NAMES[config.final_rule]}, "
            "with its 95% interval (the pick may change after any evaluation)",
            "evaluations spent",
            "resolve rate",
            band,
            y_max=1.0,
        )
        + f'<h2>Archive tree</h2>{LEGEND}<div class="tree">{tree.svg(data)}</div>'
        + f"<h2>Node × task results</h2>{matrix(archive, data)}"  # noqa: RUF001 (the sign, shown to people)
        + "<h2>Model use over time</h2>"
        + charts.line_chart(tokens, "Tokens (cumulative)", "minutes since the first call", "tokens")
        + charts.line_chart(usd, "Cost (cumulative)", "minutes since the first call", "dollars")
        + f"<h2>Transfer evaluations</h2>{transfer_table(data)}"
        + f"<h2>Cheating rate</h2>{cheating_table(data)}"
        + f"<h2>Flags</h2>{flags_section(archive)}"
    )
    return _page("dgm report", body)
