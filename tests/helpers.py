"""Helpers shared by the tests."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# The agent's tool call that fixes the built-in task text-slug-separators (runs of spaces
# become one separator).
SLUG_FIX = {
    "name": "edit",
    "arguments": {
        "command": "str_replace",
        "path": "textkit/slug.py",
        "old_str": 'r"\\s", separator',
        "new_str": 'r"\\s+", separator',
    },
}


def write_tree(root: Path, files: dict[str, bytes | str | None], modes: dict[str, int] | None = None) -> Path:
    """Make a tree: value None means an (empty) directory; modes applied afterwards."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        path = root / rel
        if content is None:
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)
    for rel, mode in (modes or {}).items():
        os.chmod(root / rel, mode)
    return root


def tree_listing(root: Path) -> dict[str, tuple[int, bytes | str | None]]:
    """Every entry under root -> (st_mode, content | link target | None for dirs)."""
    out: dict[str, tuple[int, bytes | str | None]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            st = path.lstat()
            if path.is_symlink():
                out[str(path.relative_to(root))] = (st.st_mode, os.readlink(path))
            elif path.is_dir():
                out[str(path.relative_to(root))] = (st.st_mode, None)
            else:
                out[str(path.relative_to(root))] = (st.st_mode, path.read_bytes())
    return out


def evaluate_with_bash(backend, task, command: str, work: Path, grader=None):
    """One evaluation of the seed agent on `task` whose scripted model runs `command` with
    its bash tool, then stops."""
    return evaluate_with_tool_call(backend, task, {"name": "bash", "arguments": {"command": command}}, work, grader)


def evaluate_with_tool_call(backend, task, call: dict, work: Path, grader=None):
    """One evaluation of the seed agent on `task` whose scripted model makes one tool call,
    then stops: what it did and what grading (`grader`, default a fresh one) made of it."""
    from dgm import agent_exec
    from dgm.gateway import Gateway
    from dgm.gateway.scripted import ScriptedUpstream
    from dgm.suites import Grader
    from dgm.suites.evaluate import evaluate

    script = {
        "rules": [
            {"when": {"turn": 0}, "reply": {"tool_calls": [call]}},
            {"when": {"turn": 1}, "reply": {"content": "done"}},
        ]
    }
    work.chmod(0o755)
    code = agent_exec.seed_tree(work / "code")
    with Gateway(ScriptedUpstream(script)) as gateway:
        access = agent_exec.Access(gateway.socket_path, gateway.issue_token())
        return evaluate(backend, grader or Grader(backend, work / "cache"), task, code, access, work / "eval")


def trajectory(evaluation) -> list[dict]:
    """The agent's messages in an evaluation, in order."""
    text = (evaluation.agent.out / "trajectory.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


def first_tool_output(evaluation) -> str:
    return next(m["content"] for m in trajectory(evaluation) if m["role"] == "tool")


@contextmanager
def call_in_flight(calls) -> Iterator[threading.Event]:
    """A call held in flight on `calls` (`dgm.gateway.in_flight.Calls`) by another thread from
    entry until the block ends, the event it yields is set, or 5 s have passed."""
    started, release = threading.Event(), threading.Event()

    def call() -> None:
        with calls.hold():
            started.set()
            release.wait(5)

    thread = threading.Thread(target=call)
    thread.start()
    assert started.wait(5)
    try:
        yield release
    finally:
        release.set()
        thread.join()
