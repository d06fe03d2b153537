"""The task agent: resolve one task by editing the repository in place."""

import json
from pathlib import Path

from . import fm, loop, protocol

PROMPTS = Path(__file__).parent / "prompts"
LIMITS = loop.Limits(max_steps=30, max_tokens=300_000, bash_timeout=120)


def task_text(task: dict) -> str:
    statement = task.get("statement") or task.get("problem_statement") or ""
    return f"Issue {task.get('id', '')}:\n\n{statement.strip()}\n"


def run(task_path: Path, repo: Path, out: Path) -> int:
    task = json.loads(task_path.read_text())
    model = fm.connect()
    chosen = protocol.choose(model.tool_calling)
    system = (PROMPTS / "solve_system.md").read_text()
    result = loop.run(model, chosen, system, task_text(task), repo, out, LIMITS)
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
