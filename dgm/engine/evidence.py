"""What a parent's meta agent sees when it improves itself (/evidence): its per-task
results (statement, trajectory, patch, test output, verdict), its lineage with score
deltas, its earlier children's attempts, the budget left and, in gea mode, its group's
experience. Format: seed_agent/README.md."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from archive import Archive

from ..suites import BenchmarkError, Suite

CLIP = 20_000


def _clip(text: str, limit: int = CLIP) -> str:
    return text if len(text) <= limit else text[: limit // 2] + "\n[... clipped ...]\n" + text[-limit // 2 :]


def bundle(archive: Archive, log_blob: str | None) -> dict[str, Any]:
    """The JSON bundle stored with an evaluation (patch, test log, reason, trajectory)."""
    if not log_blob:
        return {}
    try:
        return json.loads(archive.blob(log_blob))
    except ValueError:
        return {"test_log": archive.blob(log_blob).decode("utf-8", "replace")}


def outcome(reason: str | None, info: dict[str, Any]) -> str:
    """ok (the agent ran and the tests judged it), timeout, or error (it crashed, its patch
    did not apply, ...)."""
    if reason == "timeout" or info.get("agent_timed_out"):
        return "timeout"
    return "ok" if reason in (None, "tests_failed") else "error"


def score(archive: Archive, node_id: int, benchmark: str) -> dict[str, int]:
    evals = archive.evaluations(node_id, benchmark)
    return {"resolved": sum(e.resolved for e in evals), "total": len(evals)}


GROUP_TASKS = 5  # a group member's tasks shown: where this agent failed, those it resolved first
GROUP_TRAJECTORY = 60_000  # characters of each of them kept (the end)


def _safe(task_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", task_id)


def group_section(archive: Archive, node_id: int, benchmark: str, group: tuple[int, ...], dest: Path) -> list:
    """The other members' experience, for GEA: each one's score, diagnosis, code diff from
    this agent, and its results (patch, verdict, trajectory) on tasks this agent failed,
    the ones it resolved first; within GROUP_TASKS tasks and GROUP_TRAJECTORY characters each."""
    own = {e.task_id: e.resolved for e in archive.evaluations(node_id, benchmark)}
    snapshot = archive.node(node_id).snapshot
    members = []
    for member in (m for m in group if m != node_id):
        node = archive.node(member)
        folder = dest / "group" / str(member)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "code.diff").write_text(_clip(archive.diff(snapshot, node.snapshot)))
        failed_here = [e for e in archive.evaluations(member, benchmark) if own.get(e.task_id) is False]
        failed_here.sort(key=lambda e: (not e.resolved, e.task_id))
        tasks = []
        for ev in failed_here[:GROUP_TASKS]:
            info = bundle(archive, ev.log_blob)
            trajectory = f"group/{member}/tasks/{_safe(ev.task_id)}/trajectory.jsonl"
            (dest / trajectory).parent.mkdir(parents=True, exist_ok=True)
            (dest / trajectory).write_text(info.get("trajectory", "")[-GROUP_TRAJECTORY:])
            tasks.append(
                {
                    "task_id": ev.task_id,
                    "resolved": ev.resolved,
                    "exit": outcome(info.get("reason"), info),
                    "reason": info.get("reason"),
                    "patch": _clip(info.get("patch", ""), 8000),
                    "trajectory": trajectory,
                }
            )
        members.append(
            {
                "node_id": member,
                "score": score(archive, member, benchmark),
                "summary": node.origin.get("summary", ""),
                "proposal": node.origin.get("proposal", ""),
                "code_diff": f"group/{member}/code.diff",
                "tasks_this_agent_failed": tasks,
            }
        )
    return members


def recombine_section(archive: Archive, node_id: int, second: int, benchmark: str, dest: Path) -> dict[str, Any]:
    """The second parent for a recombination: its code (recombine/agent/), both parents'
    diffs from their nearest common ancestor, and what each resolves."""
    ours, theirs = archive.lineage(node_id), archive.lineage(second)
    common = [a for a, b in zip(ours, theirs, strict=False) if a.id == b.id][-1]
    folder = dest / "recombine"
    archive.materialize(archive.node(second).snapshot, folder / "agent")
    (folder / "this_agent.diff").write_text(archive.diff(common.snapshot, ours[-1].snapshot))
    (folder / "second_parent.diff").write_text(archive.diff(common.snapshot, theirs[-1].snapshot))

    def resolved(node: int) -> list[str]:
        return sorted(e.task_id for e in archive.evaluations(node, benchmark) if e.resolved)

    return {
        "second_parent": second,
        "common_ancestor": common.id,
        "score": score(archive, second, benchmark),
        "summary": theirs[-1].origin.get("summary", ""),
        "resolves_that_this_agent_does_not": sorted(set(resolved(second)) - set(resolved(node_id))),
        "agent": "recombine/agent",
        "this_agent_diff": "recombine/this_agent.diff",
        "second_parent_diff": "recombine/second_parent.diff",
    }


def build(
    archive: Archive,
    suite: Suite,
    node_id: int,
    benchmark: str,
    dest: Path,
    budget: dict[str, Any],
    group: tuple[int, ...] = (),
    second: int | None = None,
) -> Path:
    """The evidence folder for `node_id`'s meta agent; with `group` (gea), a `group` section
    holding the other members' experience; with `second` (--recombine), a `recombine`
    section and the second parent's code, to make one child of both."""
    dest.mkdir(parents=True, exist_ok=True)
    tasks = []
    for ev in archive.evaluations(node_id, benchmark):
        info = bundle(archive, ev.log_blob)
        safe = _safe(ev.task_id)
        (dest / "tasks" / safe).mkdir(parents=True, exist_ok=True)
        (dest / "tasks" / safe / "trajectory.jsonl").write_text(info.get("trajectory", ""))
        try:
            statement = suite.task(ev.task_id).statement
        except BenchmarkError:
            statement = ""
        reason = info.get("reason")
        tasks.append(
            {
                "task_id": ev.task_id,
                "resolved": ev.resolved,
                "statement": statement,
                "patch": _clip(info.get("patch", "")),
                "test_output": _clip(info.get("test_log", ""), 8000),
                "exit": outcome(reason, info),
                "reason": reason,
                "tests": ev.tests,
                "trajectory": f"tasks/{safe}/trajectory.jsonl",
            }
        )
    lineage, previous = [], None
    for node in archive.lineage(node_id):
        s = score(archive, node.id, benchmark)
        rate = s["resolved"] / s["total"] if s["total"] else None
        delta = None if rate is None or previous is None else round(rate - previous, 4)
        lineage.append({"node_id": node.id, "score": s, "delta": delta, "summary": node.origin.get("summary", "")})
        previous = rate if rate is not None else previous
    siblings = [
        {
            "node_id": c.id,
            "status": c.status,
            "reason": c.reason,
            "summary": c.origin.get("summary", ""),
            "proposal": c.origin.get("proposal", ""),
            "score": score(archive, c.id, benchmark),
        }
        for c in archive.children(node_id)
    ]
    summary = {
        "node_id": node_id,
        "benchmark": benchmark,
        "score": score(archive, node_id, benchmark),
        "tasks": tasks,
        "lineage": lineage,
        "siblings": siblings,
        "budget": budget,
    }
    if group:
        summary["group"] = group_section(archive, node_id, benchmark, group, dest)
    if second is not None:
        summary["recombine"] = recombine_section(archive, node_id, second, benchmark, dest)
    (dest / "summary.json").write_text(json.dumps(summary, indent=2))
    for path in [dest, *dest.rglob("*")]:
        if not path.is_symlink():  # a link in an agent's code may point anywhere: never follow it
            path.chmod(0o755 if path.is_dir() else 0o644)
    return dest
