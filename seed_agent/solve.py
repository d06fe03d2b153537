"""The task agent: resolve one task by editing the repository in place."""

import json
from pathlib import Path

from . import fm, loop, probes, protocol

PROMPTS = Path(__file__).parent / "prompts"
LIMITS = loop.Limits(max_steps=30, max_tokens=300_000, bash_timeout=120)


CONTEXT_CHARS = 8000  # source shown up front to models on the text protocol


def task_text(task: dict) -> str:
    return f"Issue {task.get('id', '')}:\n\n{statement(task).strip()}\n"


def repo_context(repo: Path, with_sources: bool) -> str:
    """The repository's files, and (for models that cannot explore with tools) the
    source files themselves, tests last, within a character budget."""
    files = sorted(p for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts and "__pycache__" not in p.parts)
    names = [str(p.relative_to(repo)) for p in files]
    text = "\nFiles in the repository:\n" + "\n".join(names[:300]) + "\n"
    if not with_sources:
        return text
    budget = CONTEXT_CHARS
    for path in sorted((p for p in files if p.suffix == ".py"), key=lambda p: ("test" in str(p), str(p))):
        content = path.read_text(errors="replace")
        if len(content) > budget:
            break
        budget -= len(content)
        text += f"\n{path.relative_to(repo)}:\n```python\n{content}```\n"
    return text


CALLS_NOW = "The calls the issue quotes, run on the code as it is now:\n{}"


def prompt(task: dict, repo: Path, text_protocol: bool, calls: str = "") -> str:
    """The issue, the repository and, for models on the text protocol, its sources, what the
    calls the issue quotes give now, then the issue again: a small model attends to what is
    closest to its reply, and after 8000 characters of source the issue is far away."""
    first = task_text(task) + repo_context(repo, with_sources=text_protocol)
    if not text_protocol:
        return first
    now = "\n" + CALLS_NOW.format(calls) + "\n" if calls else ""
    return first + now + "\n" + task_text(task).replace("Issue ", "The issue again, ", 1)


def statement(task: dict) -> str:
    return task.get("statement") or task.get("problem_statement") or ""


def run(task_path: Path, repo: Path, out: Path) -> int:
    task = json.loads(task_path.read_text())
    model = fm.connect()
    quoted = [] if model.tool_calling else probes.runnable(statement(task), repo)
    before = probes.run(quoted, repo)  # run once: what reproduces, and what it gives before any change
    calls = probes.reproducible(quoted, before)
    after_write = (lambda: probes.after_change(calls, repo, before)) if calls else None
    chosen = protocol.choose(model.tool_calling, repo, after_write)
    system = (PROMPTS / "solve_system.md").read_text()
    text = prompt(task, repo, chosen.name == "text", probes.report(before))
    result = loop.run(model, chosen, system, text, repo, out, LIMITS)
    (out / "solve.json").write_text(
        json.dumps(
            {
                "task": task.get("id"),
                "status": result.status,
                "steps": result.steps,
                "detail": result.detail,
                "protocol": chosen.name,
                "tokens": model.usage.total,
                "calls": model.usage.calls,
            },
            indent=2,
        )
    )
    return 0
