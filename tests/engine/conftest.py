"""Engine fixtures: a few built-in tasks as a task folder, and a SCRIPTED upstream (the test
double) that fixes one of them and makes each meta agent leave a small, valid edit."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from dgm.benchmarks.loaders.taskdir import BUILTIN_DIR

TASKS = ("text-slug-separators", "app-pagination-page-count", "algo-interval-touching")

SLUG_FIX = {
    "name": "edit",
    "arguments": {
        "command": "str_replace",
        "path": "textkit/slug.py",
        "old_str": 'r"\\s", separator',
        "new_str": 'r"\\s+", separator',
    },
}
DIAGNOSIS = {
    "summary": "the agent gave up without reading the code",
    "proposal": "read the files named in the issue before answering",
    "implementation_plan": "add a sentence to seed_agent/prompts/solve_system.md",
}
PROMPT_EDIT = {
    "name": "bash",
    "arguments": {
        "command": "echo 'Read the code the issue is about before you answer.' >> seed_agent/prompts/solve_system.md"
    },
}
SCRIPT = {
    "model": "scripted-engine-test",
    "tool_calling": True,
    "rules": [
        # meta agent: diagnosis, then one edit, then done
        {"when": {"contains": "Answer with ONE JSON object"}, "reply": {"content": json.dumps(DIAGNOSIS)}},
        {"when": {"turn": 0, "system_contains": "improving a coding agent"}, "reply": {"tool_calls": [PROMPT_EDIT]}},
        {"when": {"system_contains": "improving a coding agent"}, "reply": {"content": "done"}},
        # task agent: fixes the slug task, gives up on the others
        {"when": {"turn": 0, "contains": "several dashes in a row"}, "reply": {"tool_calls": [SLUG_FIX]}},
        {"when": {}, "reply": {"content": "I could not find the problem."}},
    ],
}


@pytest.fixture
def engine_env(tmp_path):
    tasks = tmp_path / "tasks"
    for task in TASKS:
        shutil.copytree(BUILTIN_DIR / task, tasks / task)
    script = tmp_path / "script.json"
    script.write_text(json.dumps(SCRIPT))
    return tasks, script


def evolve_args(run: Path, tasks: Path, fm: str, *extra: str) -> list[str]:
    """`dgm evolve` arguments for a run on the task folder `tasks` through upstream `fm`."""
    return ["evolve", "--run", str(run), "--fm", fm, "--benchmark", f"taskdir:{tasks}", *extra]


def evolve_cmd(run: Path, tasks: Path, fm: str, *extra: str) -> list[str]:
    """The same as a separate process on bwrap (so it can be killed)."""
    return [sys.executable, "-m", "dgm", *evolve_args(run, tasks, fm, "--backend", "bwrap", *extra)]
