"""Where an agent to start from or to evaluate comes from: a folder (an export, a checkout
holding seed_agent/, or the seed_agent package folder itself) or another run's node,
`RUN:NODE`. Either way the agent is copied to a scratch folder the sandboxes can read, and
its provenance is said, so the archive can record where a node came from. Nothing here
imports or runs the agent: `agent_exec.check` does that, in a sandbox."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from archive import Archive, ArchiveError
from archive.snapshots import open_up

from . import agent_exec
from .agent_exec import agent_tree

NODE_REF = re.compile(r"^(?P<run>.+):(?P<node>\d+)$")


class AgentSourceError(Exception):
    """The agent cannot be found or read; the message says what was given and why."""


@dataclass(frozen=True)
class AgentSource:
    tree: Path  # the snapshot root (it holds seed_agent/), readable by sandboxes
    provenance: dict[str, Any]  # recorded in the node's origin


def readable(root: Path) -> Path:
    """`root`, made readable by the sandboxes' other user."""
    open_up(root)
    return root


def from_run(run_dir: Path, node_id: int, dest: Path) -> AgentSource:
    """Node `node_id` of the run in `run_dir`, materialized at `dest` (the run is only read)."""
    if not (run_dir / "archive.db").is_file():
        raise AgentSourceError(f"{run_dir}:{node_id}: {run_dir} is not a run directory (no archive.db in it)")
    try:
        with Archive.for_run(run_dir) as archive:
            node = archive.node(node_id)
            archive.materialize(node.snapshot, dest)
    except ArchiveError as exc:
        raise AgentSourceError(f"{run_dir}:{node_id}: {exc}") from exc
    provenance = {"run": str(run_dir.resolve()), "node": node_id, "snapshot": node.snapshot}
    return AgentSource(readable(dest), provenance)


def resolve(spec: str | Path, scratch: Path) -> AgentSource:
    """The agent named by `spec` (a folder, or RUN:NODE), copied under `scratch`."""
    text = str(spec)
    ref = NODE_REF.match(text)
    if ref and not Path(text).exists():
        return from_run(Path(ref["run"]), int(ref["node"]), scratch / "agent")
    path = Path(text)
    if not path.is_dir():
        raise AgentSourceError(f"{text}: no such folder (give an agent folder, or RUN:NODE for a run's node)")
    try:
        root = agent_tree(path, scratch / "package")
    except FileNotFoundError as exc:
        raise AgentSourceError(str(exc)) from exc
    dest = scratch / "agent"
    shutil.copytree(root, dest, symlinks=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return AgentSource(readable(dest), {"path": str(path.resolve())})


def check(backend, source: AgentSource, name: str) -> None:
    """Run the agent's own `check` in a sandbox; refuse an agent that fails it, with its output."""
    result = agent_exec.check(backend, source.tree)
    if result.exit_code != 0:
        output = (result.stdout + result.stderr).strip()[-3000:]
        raise AgentSourceError(
            f"{name} is not a runnable agent: its check failed (exit {result.exit_code}):\n{output or '(no output)'}"
        )
