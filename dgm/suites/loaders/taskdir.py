"""The plain task-folder format, and the built-in suite shipped in it.

TASK_ID/task.json       id, statement, split, FAIL_TO_PASS, PASS_TO_PASS,
                        optional: test_command, timeout, difficulty, log_parser, requirements
TASK_ID/repo/           the repository at its base state (with its own tests)
TASK_ID/hidden/         hidden test files, laid out relative to the repository root
TASK_ID/reference.patch the fix (git-style diff), never shown to agents
"""

from __future__ import annotations

import json
from pathlib import Path

from ..suite import Suite
from ..task import BenchmarkError, RepoSource, Task

BUILTIN_DIR = Path(__file__).resolve().parent.parent / "builtin"
# -rfEsxXp: every outcome in the short summary; no captured output (which code under test controls).
DEFAULT_COMMAND = "python3 -m pytest -rfEsxXp --show-capture=no -q -p no:cacheprovider"


def load_task(folder: Path, suite: str) -> Task:
    try:
        meta = json.loads((folder / "task.json").read_text())
        hidden_root = folder / "hidden"
        hidden = (
            {
                str(p.relative_to(hidden_root)): p.read_bytes()
                for p in sorted(hidden_root.rglob("*"))
                if p.is_file() and "__pycache__" not in p.parts
            }
            if hidden_root.is_dir()
            else {}
        )
        return Task(
            id=meta["id"],
            suite=suite,
            split=meta.get("split", "dev"),
            statement=meta["statement"],
            repo=RepoSource(folder / "repo"),
            test_command=meta.get("test_command", DEFAULT_COMMAND),
            fail_to_pass=tuple(meta["FAIL_TO_PASS"]),
            pass_to_pass=tuple(meta.get("PASS_TO_PASS", [])),
            reference_patch=(folder / "reference.patch").read_text(),
            hidden_files=hidden,
            timeout=float(meta.get("timeout", 120)),
            log_parser=meta.get("log_parser", "pytest"),
            difficulty=meta.get("difficulty", ""),
            requirements=tuple(meta.get("requirements", [])),
        )
    except (OSError, KeyError, ValueError) as exc:
        raise BenchmarkError(f"{folder}: not a valid task folder ({exc.__class__.__name__}: {exc})") from exc


def load(path: str | Path, name: str | None = None) -> Suite:
    root = Path(path)
    if not root.is_dir():
        raise BenchmarkError(f"no task folder at {root}")
    folders = sorted(p for p in root.iterdir() if (p / "task.json").exists())
    if not folders:
        raise BenchmarkError(f"{root} holds no task folders (TASK_ID/task.json)")
    name = name or root.name
    return Suite(name, tuple(load_task(f, name) for f in folders))


def load_builtin(_arg: str | None = None) -> Suite:
    return load(BUILTIN_DIR, "builtin")
