"""One evaluation of an agent on a task, in two phases, each in a fresh sandbox.

Agent phase: the agent sees the repository at its base state (a fresh git repository with
one commit, so no history can hold the fix or the tests) and the statement only. Grading
phase: the patch between the base and what the agent left is graded (see grader.py).

An agent that crashed, never started or was stopped by a limit, and whose work does not
resolve the task, fails with `agent_failed` (its exit status and stderr head the log),
never `tests_failed`: the tests did not fail the agent, the agent failed first. Work left
by a crashed agent that does resolve the task counts: the hidden tests decide."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from archive import ArchiveError
from sandbox import Backend, Limits

from .. import agent_exec
from .grader import Grader, Verdict
from .patches import tree_patch
from .task import Task

GIT = ["git", "-c", "user.name=dgm", "-c", "user.email=dgm@localhost", "-c", "init.defaultBranch=main"]


def agent_repo(grader: Grader, task: Task, dest: Path) -> Path:
    """The repository the agent works on: the base state as a one-commit git repository."""
    shutil.copytree(grader.base(task), dest, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "--no-verify", "-m", "base"]):
        subprocess.run([*GIT, "-C", str(dest), *cmd], check=True, capture_output=True)
    return dest


@dataclass(frozen=True)
class Evaluation:
    verdict: Verdict
    patch: str
    agent: agent_exec.AgentRun | None
    seconds: float


def evaluate(
    backend: Backend,
    grader: Grader,
    task: Task,
    code: Path,
    access: agent_exec.Access,
    work: Path,
    limits: Limits = Limits(),
    gate: Callable[[str], tuple[str, str] | None] | None = None,
    live: Path | None = None,
) -> Evaluation:
    """`gate`: asked with the patch before grading; a (reason, detail) it returns fails the
    evaluation with them before any hidden test runs. `live`: a file naming the agent's /out
    folder while it runs, so that its trajectory can be followed (`dgm.live_trajectory`)."""
    start = time.monotonic()
    repo = agent_repo(grader, task, work / "base")
    env, host = task.environment, agent_exec.Host(backend, access, limits, image=task.image, live=live)
    if env is not None:  # the task's own image, at its working directory, its environment first on PATH
        host = agent_exec.Host(backend, access, limits, {"PATH": env.path}, env.resolved_image(), live)
    run = agent_exec.solve(
        host, code, task.agent_view(), repo, work / "agent", at=env.workdir if env else agent_exec.REPO
    )
    try:
        patch = tree_patch(grader.base(task), work / "agent" / "repo")
    except ArchiveError as exc:  # the agent left something unsafe (e.g. a symlink out of the tree)
        verdict = grader.refuse(task, f"unsafe_output: {exc}")
        return Evaluation(verdict, "", run, time.monotonic() - start)
    stopped = gate(patch) if gate is not None else None
    if stopped:
        reason, detail = stopped
        verdict = dataclasses.replace(grader.refuse(task, reason), log=detail)
        return Evaluation(verdict, patch, run, time.monotonic() - start)
    return Evaluation(agent_verdict(grader.grade(task, patch), run), patch, run, time.monotonic() - start)


STDERR_SHOWN = 4000


def agent_verdict(verdict: Verdict, run: agent_exec.AgentRun) -> Verdict:
    """`verdict`, or `agent_failed` when the agent's run failed and the tests did not pass."""
    result = run.result
    if result.ok or verdict.reason != "tests_failed":
        return verdict  # resolved, or failed for a reason of its own (a bad patch, tampering, ...)
    how = "timed out" if result.timed_out else f"limit hit: {result.limit_hit}" if result.limit_hit else None
    head = f"agent failed (exit {result.exit_code}{f', {how}' if how else ''}); its stderr:\n"
    log = head + result.stderr[-STDERR_SHOWN:] + "\n\n" + verdict.log
    return dataclasses.replace(verdict, reason="agent_failed", log=log)
