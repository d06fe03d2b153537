"""Running an agent's entry points (`solve`, `improve`, `check`) inside a sandbox.

The agent's code is mounted read-only at /code and run from there; the gateway socket is
its only way out, and its OPENAI_API_KEY is the job's gateway token. Results come back only
through `copy_out`."""

from __future__ import annotations

import importlib.util
import json
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sandbox import Backend, ExecResult, Limits, Mount, SandboxSpec, image

from . import live_trajectory

CODE, AGENT, EVIDENCE, REPO, TASK, OUT = "/code", "/agent", "/evidence", "/repo", "/task", "/out"
AGENT_ENV = {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}


def seed_agent_dir() -> Path:
    """The shipped seed agent's package directory (found, never imported)."""
    spec = importlib.util.find_spec("seed_agent")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the seed_agent package is not installed next to dgm")
    return Path(next(iter(spec.submodule_search_locations)))


def seed_tree(dest: Path) -> Path:
    """A snapshot tree of the seed agent: dest/seed_agent/..., without bytecode caches."""
    shutil.copytree(seed_agent_dir(), dest / "seed_agent", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for path in [dest, *dest.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return dest


def agent_tree(path: Path, scratch: Path) -> Path:
    """The snapshot root of an agent given as `path`: a folder holding seed_agent/ (an
    export, a run's node), or the seed_agent package folder itself, copied to
    scratch/seed_agent. Anything else is refused, since nothing in it could be run."""
    path = Path(path)
    if (path / "seed_agent" / "__main__.py").is_file():
        return path
    if path.name == "seed_agent" and (path / "__main__.py").is_file():
        shutil.copytree(path, scratch / "seed_agent", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        return scratch
    raise FileNotFoundError(f"{path} is not an agent: expected seed_agent/__main__.py in it (or it to be seed_agent/)")


@dataclass(frozen=True)
class AgentRun:
    result: ExecResult
    out: Path  # the copied-out /out of the run


@dataclass(frozen=True)
class Access:
    """How a run reaches the model: the gateway socket and the job's token (None: no access)."""

    socket: Path | None = None
    token: str | None = None


@dataclass(frozen=True)
class Host:
    """Where an entry point runs and what it may use: the sandbox backend, its way to the
    model, its limits and any extra environment variables."""

    backend: Backend
    access: Access = Access()
    limits: Limits = Limits()
    env: Mapping[str, str] = field(default_factory=dict)
    image: str | None = None  # the task's own image (its environment); None: dgm's sandbox image
    live: Path | None = None  # names the host folder behind /out while the agent runs (live_trajectory.py)


def _run(
    host: Host, code: Path, mounts: tuple[Mount, ...], args: list[str], back: tuple[str, str], dest: Path
) -> AgentRun:
    """Run `python3 -m seed_agent ARGS` from /code with /out writable; copy the sandbox
    folder back[0] out to dest/back[1] and /out to dest/out. In a task's own image the
    agent runs on dgm's Python (its packages, its version), mounted read-only."""
    token = {"OPENAI_API_KEY": host.access.token} if host.access.token else {}
    python, extra = ["python3"], ()
    if host.image is not None:
        runtime = image.runtime()
        python, extra = runtime.python(), (Mount(runtime.mount, runtime.rootfs),)
    spec = SandboxSpec(
        mounts=(Mount(CODE, code), *mounts, *extra, Mount(OUT, None, writable=True)),
        env={**AGENT_ENV, **token, **host.env},
        workdir=CODE,
        limits=host.limits,
        socket=host.access.socket,
        image=host.image,
    )
    with host.backend.start(spec) as session, live_trajectory.announced(host.live, session.host_dirs[OUT]):
        result = session.exec([*python, "-m", "seed_agent", *args, "--out", OUT])
        session.copy_out(back[0], dest / back[1])
        out = session.copy_out(OUT, dest / "out")
    return AgentRun(result, out)


def solve(host: Host, code: Path, task: dict, repo: Path, dest: Path, at: str = REPO) -> AgentRun:
    """Run `solve` on a private copy of `repo`, seen at `at`; the edited repo comes back to
    dest/repo."""
    (dest / "task").mkdir(mode=0o755, parents=True)
    (dest / "task" / "task.json").write_text(json.dumps(task))
    (dest / "task" / "task.json").chmod(0o644)
    mounts = (Mount(TASK, dest / "task"), Mount(at, repo, writable=True))
    return _run(host, code, mounts, ["solve", "--task", f"{TASK}/task.json", "--repo", at], (at, "repo"), dest)


def improve(host: Host, code: Path, evidence: Path, dest: Path) -> AgentRun:
    """Run the parent's `improve` on a private copy of its own code; the edited copy comes
    back to dest/agent."""
    dest.mkdir(parents=True)
    mounts = (Mount(AGENT, code, writable=True), Mount(EVIDENCE, evidence))
    return _run(host, code, mounts, ["improve", "--self", AGENT, "--evidence", EVIDENCE], (AGENT, "agent"), dest)


def check(backend: Backend, code: Path, limits: Limits = Limits(wall_s=300)) -> ExecResult:
    """Run the agent's own `check` in a fresh sandbox with no model access."""
    spec = SandboxSpec(mounts=(Mount(CODE, code),), env=dict(AGENT_ENV), workdir=CODE, limits=limits)
    with backend.start(spec) as session:
        return session.exec(["python3", "-m", "seed_agent", "check"])
