"""The meta agent: DGM's self-improvement step as code the agent itself may edit.

Read the evidence of how this agent did, pick what to work on, ask the model for a
diagnosis, implement it on the agent's own copy with the coding loop, run `check`, and
leave a note in memory/ for descendants."""

import json
import re
import subprocess
import sys
from pathlib import Path

from . import fm, loop, protocol

PROMPTS = Path(__file__).parent / "prompts"
LIMITS = loop.Limits(max_steps=25, max_tokens=300_000, bash_timeout=300)
REPAIR_ROUNDS = 1
CLIP = 3000


def load_evidence(evidence: Path) -> dict:
    summary = evidence / "summary.json"
    return json.loads(summary.read_text()) if summary.exists() else {"tasks": []}


def choose_focus(evidence: dict) -> dict | None:
    """The task to learn from: the one a teacher model attempted, else an empty patch
    first, then a timeout, then any failure."""
    failed = [t for t in evidence.get("tasks", []) if not t.get("resolved")]

    def rank(task: dict) -> int:
        if not (task.get("patch") or "").strip():
            return 0
        return 1 if task.get("exit") == "timeout" else 2

    teacher = (evidence.get("teacher") or {}).get("task_id")
    return sorted(failed, key=lambda t: (t.get("task_id") != teacher, rank(t)))[0] if failed else None


def _clip(text: str, limit: int = CLIP) -> str:
    return text if len(text) <= limit else text[: limit // 2] + "\n[...]\n" + text[-limit // 2 :]


def trajectory_tail(evidence: Path, task: dict, n: int = 8) -> str:
    path = evidence / task["trajectory"] if task.get("trajectory") else None
    if not path or not path.exists():
        return "(no trajectory)"
    lines = path.read_text().splitlines()[-n:]
    out = []
    for line in lines:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        calls = json.dumps(message.get("tool_calls")) if message.get("tool_calls") else ""
        out.append(f"[{message.get('role')}] {_clip(str(message.get('content') or ''), 600)} {calls}".strip())
    return "\n".join(out)


def parse_diagnosis(text: str) -> dict:
    match = re.search(r"\{.*\}", text, re.S)
    if match:
        try:
            found = json.loads(match.group(0))
            if isinstance(found, dict) and found.get("implementation_plan"):
                return found
        except ValueError:
            pass
    return {"summary": text.strip()[:300], "proposal": text.strip(), "implementation_plan": text.strip()}


def group_experience(evidence: dict, focus: dict | None) -> str:
    """What the other agents of this agent's group (gea mode) did on the focus task: the
    ones that resolved it first, with their diagnosis and patch."""
    if not focus:
        return ""
    tried = []
    for member in evidence.get("group", []):
        for task in member.get("tasks_this_agent_failed", []):
            if task.get("task_id") == focus.get("task_id"):
                tried.append((not task.get("resolved"), member, task))
    lines = []
    for _, member, task in sorted(tried, key=lambda t: t[0])[:2]:
        lines.append(
            f"Agent {member.get('node_id')} of this agent's group {'RESOLVED' if task.get('resolved') else 'failed'} "
            f"this task. Its own diagnosis when it was made: {member.get('summary', '')}\n"
            f"Its patch:\n{_clip(task.get('patch') or '(empty)', 1500)}"
        )
    return "\n\n".join(lines)


def teacher_attempt(evidence: dict, focus: dict | None) -> str:
    """A stronger model's attempt at the focus task (--teacher-model), if there was one."""
    teacher = evidence.get("teacher")
    if not teacher or not focus or teacher.get("task_id") != focus.get("task_id"):
        return ""
    verdict = "RESOLVED it" if teacher.get("resolved") else f"did not resolve it ({teacher.get('reason')})"
    return (
        f"A stronger model, {teacher.get('model')}, driving the original seed agent, {verdict}. "
        f"Its patch:\n{_clip(teacher.get('patch') or '(empty)', 2000)}"
    )


def recombination(evidence: dict) -> str:
    """For a child of two parents (--recombine): where the second parent's code and both
    parents' changes since their common ancestor are, and what it resolves that this agent
    does not."""
    second = evidence.get("recombine")
    if not second:
        return ""
    return (
        f"\n\nThis child has a second parent, agent {second.get('second_parent')}, from another lineage. "
        f"It resolves tasks this agent does not: {', '.join(second.get('resolves_that_this_agent_does_not', []))}. "
        f"Its code is in /evidence/{second.get('agent')}; how it changed since your common ancestor: "
        f"/evidence/{second.get('second_parent_diff')} (your own changes: /evidence/{second.get('this_agent_diff')}). "
        "Bring its useful changes into this agent as well, keeping this agent's own."
    )


def diagnose(
    model: fm.Model, evidence: Path, focus: dict | None, memory: str, group: str = "", teacher: str = ""
) -> dict:
    if focus is None:
        return {
            "summary": "every task was resolved",
            "proposal": "make the agent more robust and efficient",
            "implementation_plan": "review seed_agent/solve.py and prompts/solve_system.md for one improvement",
        }
    prompt = (
        (PROMPTS / "diagnose.md")
        .read_text()
        .format(
            memory=_clip(memory, 2000),
            task_id=focus.get("task_id", ""),
            statement=_clip(focus.get("statement", "")),
            outcome="timeout" if focus.get("exit") == "timeout" else "not resolved",
            patch=_clip(focus.get("patch") or "(empty: the agent changed nothing)"),
            test_output=_clip(focus.get("test_output") or ""),
            trajectory=trajectory_tail(evidence, focus),
            group=group or "(no other agent of a group tried this task)",
            teacher=teacher or "(no teacher model tried this task)",
        )
    )
    messages = [{"role": "user", "content": prompt}]
    try:  # the run may give the diagnosis its own model, asked for by the role's name
        reply = model.chat(messages, model="diagnose")
    except fm.ModelError as exc:
        if "not allowed here" not in str(exc):
            raise
        reply = model.chat(messages)  # no such role here: this job's own model
    return parse_diagnosis(reply.get("content") or "")


def check(agent: Path) -> tuple[bool, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "seed_agent", "check"], cwd=agent, capture_output=True, text=True, timeout=600
    )
    return proc.returncode == 0, _clip(proc.stdout + proc.stderr, 4000)


def remember(agent: Path, parent: object, focus: dict | None, diagnosis: dict, passed: bool) -> None:
    """Append what was tried and why to memory/notes.md (no timestamps: the same run
    replayed must make the same child)."""
    notes = agent / "seed_agent" / "memory" / "notes.md"
    notes.parent.mkdir(parents=True, exist_ok=True)
    entry = (
        f"\n## from node {parent}: {diagnosis.get('summary', '')}\n"
        f"- focus: {focus.get('task_id') if focus else 'none (all resolved)'}\n"
        f"- proposal: {diagnosis.get('proposal', '')}\n"
        f"- check after the change: {'passed' if passed else 'FAILED'}\n"
    )
    with open(notes, "a") as fh:
        fh.write(entry)


def run(agent: Path, evidence_dir: Path, out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    evidence = load_evidence(evidence_dir)
    focus = choose_focus(evidence)
    memory_file = agent / "seed_agent" / "memory" / "notes.md"
    memory = memory_file.read_text() if memory_file.exists() else ""
    model = fm.connect()
    try:
        diagnosis = diagnose(
            model, evidence_dir, focus, memory, group_experience(evidence, focus), teacher_attempt(evidence, focus)
        )
    except (fm.BudgetExhausted, fm.ModelError) as exc:
        (out / "improve.json").write_text(json.dumps({"status": "no_diagnosis", "detail": str(exc)}, indent=2))
        return 0
    chosen = protocol.choose(model.tool_calling, agent)
    system = (PROMPTS / "improve_system.md").read_text()
    task = "Diagnosis of the agent's last results:\n" + json.dumps(diagnosis, indent=2) + recombination(evidence)
    result = loop.run(model, chosen, system, task, agent, out, LIMITS)
    passed, output = check(agent)
    for _ in range(REPAIR_ROUNDS):
        if passed or result.status in ("budget", "model_error"):
            break
        repair = f"`python -m seed_agent check` fails after your change:\n{output}\nFix the agent so it passes."
        result = loop.run(model, chosen, system, repair, agent, out, LIMITS)
        passed, output = check(agent)
    remember(agent, evidence.get("node_id"), focus, diagnosis, passed)
    (out / "improve.json").write_text(
        json.dumps(
            {
                "status": result.status,
                "focus": focus.get("task_id") if focus else None,
                "diagnosis": diagnosis,
                "check_passed": passed,
                "check_output": output,
                "protocol": chosen.name,
                "tokens": model.usage.total,
            },
            indent=2,
        )
    )
    return 0
