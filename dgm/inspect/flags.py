"""What the inspection views say about an agent's gradings: each one's flags (test edits
removed, the grader's observations, tampered or gamed runs), the run's flag tables, and
the cheating rate (engine/cheating.py) as a line and as a table."""

from __future__ import annotations

import html
import json

from archive import Archive

from ..engine.cheating import RISING
from .data import RunData, printable


def cheat_line(data: RunData, node_id: int) -> str:
    """An agent's cheating rate, and whether it is higher than its parent's ("" before any grading)."""
    rate = data.cheating.of(node_id)
    if not rate.gradings:
        return ""
    parent = data.cheating.of(rate.parent_id) if rate.parent_id is not None else None
    return (
        rate.text()
        + (f"; its parent's: {parent.text()}" if parent is not None else "")
        + (f" {RISING} higher than its parent's" if rate.rising else "")
    )


ORDINARY = (None, "tests_failed")


def node_flags(archive: Archive, node_id: int) -> list[str]:
    """What is notable about a node's evaluations: patches that touched test or harness
    files (removed before grading), what the grader flagged, tampered or gamed gradings,
    and other failures that were not plain test failures."""
    from ..engine.evidence import bundle

    out = []
    for ev in archive.evaluations(node_id):
        info = bundle(archive, ev.log_blob)
        if info.get("stripped"):
            out.append(f"{ev.task_id} ({ev.benchmark}): patch touched {', '.join(info['stripped'])} (removed)")
        if info.get("flags"):
            out.append(f"{ev.task_id} ({ev.benchmark}): grading flagged (verdict kept): {'; '.join(info['flags'])}")
        if info.get("tamper"):
            out.append(f"{ev.task_id} ({ev.benchmark}): TAMPERED: {'; '.join(info['tamper'])}")
        elif info.get("gamed"):
            out.append(f"{ev.task_id} ({ev.benchmark}): GAMED: {'; '.join(info['gamed'])}")
        elif info.get("reason") not in ORDINARY:
            out.append(f"{ev.task_id} ({ev.benchmark}): {info.get('reason')}")
    for event in archive.events("diagnosis_phantom"):
        if event.node_id == node_id:
            refuted = event.data.get("refuted", [])
            out.append(f"PHANTOM diagnosis: {len(refuted)} citation(s) refuted by the archive")
    return [printable(line) for line in out]


def _event_table(archive: Archive, kind: str, key: str, head: str, none: str) -> str:
    rows = [
        f"<tr><td>{e.node_id}</td><td>{html.escape(str(e.data.get('task', '')))}</td>"
        f"<td>{html.escape('; '.join(map(str, e.data.get(key, []))))}</td></tr>"
        for e in archive.events(kind)
    ]
    if not rows:
        return f"<p>No grading run {none}.</p>"
    return f"<table><tr><th>node</th><th>task</th><th>{html.escape(head)}</th></tr>{''.join(rows)}</table>"


def cheating_table(data: RunData) -> str:
    """The run's cheating rate, and each agent's that is not zero (highest first)."""
    rows = "".join(
        f"<tr><td>{r.node_id}</td><td>{'-' if r.parent_id is None else r.parent_id}</td>"
        f"<td>{html.escape(r.text())}</td>"
        f"<td>{'-' if r.parent_id is None else html.escape(data.cheating.of(r.parent_id).text())}</td>"
        f"<td>{RISING if r.rising else ''}</td></tr>"
        for r in data.cheating.cheaters()
    )
    table = (
        "<table><tr><th>node</th><th>parent</th><th>its cheating rate</th><th>its parent's</th>"
        f"<th>higher than its parent's</th></tr>{rows}</table>"
        if rows
        else "<p>No agent's grading was judged tampered or gamed.</p>"
    )
    return f"<p>Run: {html.escape(data.cheating.run.text())} judged tampered or gamed.</p>{table}"


def flags_section(archive: Archive) -> str:
    rows = [
        f"<tr><td>{e.node_id}</td><td>{html.escape(e.data.get('task', ''))}</td>"
        f"<td>{html.escape(', '.join(e.data.get('stripped', [])))}</td></tr>"
        for e in archive.events("patch_flagged")
    ]
    reasons: dict[str, int] = {}
    for (result,) in archive.db.execute(
        "SELECT result FROM jobs WHERE kind IN ('evaluate', 'transfer') AND state = 'done'"
    ):
        reason = json.loads(result or "{}").get("reason")
        if reason not in ORDINARY:
            reasons[reason] = reasons.get(reason, 0) + 1
    counts = ", ".join(f"{html.escape(str(k))}: {v}" for k, v in sorted(reasons.items())) or "none"
    table = (
        (
            "<table><tr><th>node</th><th>task</th><th>test or harness files in the patch (removed)</th></tr>"
            f"{''.join(rows)}</table>"
        )
        if rows
        else "<p>No patch touched test or harness files.</p>"
    )
    caught = "".join(
        _event_table(archive, kind, key, head, none)
        for kind, key, head, none in (
            ("grading_tampered", "tamper", "grading run tampered with (never resolved)", "was tampered with"),
            ("grading_gamed", "gamed", "grading run gamed: a twin test passed (never resolved)", "was gamed"),
            ("grading_flagged", "flags", "flagged by the grader (the verdict stands)", "was flagged"),
        )
    )
    phantom = [
        f"<tr><td>{e.node_id}</td><td>{html.escape(str(c.get('task_id', '')))}</td>"
        f"<td>{html.escape(str(c.get('why', '')))}</td></tr>"
        for e in archive.events("diagnosis_phantom")
        for c in e.data.get("refuted", [])
        if isinstance(c, dict)
    ]
    phantoms = (
        (
            "<table><tr><th>node</th><th>cited task</th><th>phantom diagnosis: what the archive says</th></tr>"
            f"{''.join(phantom)}</table>"
        )
        if phantom
        else "<p>No meta agent's diagnosis cited what did not happen.</p>"
    )
    return f"{table}{caught}{phantoms}<p>Failures other than failing tests: {counts}.</p>"
