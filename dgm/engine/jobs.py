"""The job protocol the engine defines and executors implement: an executor runs the
engine's jobs somewhere and hands back their outcomes as futures. The driver decides the
jobs, prepares them as plain values (a snapshot named by its content hash, evidence as a
tree, a gateway token) and alone records the results. Where a job runs (a thread here, a
Ray task on another machine) is the executor's business; how a job is run is `work.py`'s,
what it needs on its node `node.py`'s. Executors import the engine, never the reverse."""

from __future__ import annotations

import concurrent.futures
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from archive import Archive
from archive.snapshots import ScannedTree

from . import work
from .config import RunConfig
from .judge import Judging


@dataclass(frozen=True)
class ExpandRequest:
    job_id: int
    parent_id: int
    snapshot: str  # the parent's snapshot id (content hash)
    evidence: ScannedTree  # /evidence for the meta agent
    token: str  # the job's gateway credential
    generation: int
    teacher: work.Teacher | None = None  # --teacher-model: the teacher's task, token and model


@dataclass(frozen=True)
class EvaluateRequest:
    job_id: int
    node_id: int
    task_id: str
    snapshot: str
    token: str
    judge: Judging | None = None  # a run that uses a judge: its token (role judge) and prompt


Request = ExpandRequest | EvaluateRequest


@dataclass(frozen=True)
class RunEnv:
    """What the driver offers an executor when the run starts."""

    run_dir: Path
    archive: Archive  # read on the driver's thread only (in submit)
    config: RunConfig
    context: work.Context  # the driver's own backend, grader, suite and gateway socket


class WorkerLost(Exception):
    """The machine or process running a job went away; the job goes back to the queue
    like any stale job."""


class ExecutorError(Exception):
    """The executor cannot start (say, no cluster at that address); the message says why."""


class Executor(Protocol):
    """Runs jobs. `start` is called once per run before any `submit`, `shutdown` once at
    the end. `submit` is called from the driver's thread; the future it returns resolves
    to a `work.ExpandOutcome` for an ExpandRequest or a `work.EvaluationRecord` for an
    EvaluateRequest, or raises (WorkerLost when the worker died)."""

    name: str
    summary: str  # one line for --help

    def start(self, env: RunEnv) -> None: ...

    def submit(self, request: Request) -> concurrent.futures.Future: ...

    def shutdown(self, cancel: bool = False) -> int:
        """Stop; with `cancel`, abandon running jobs and close their sandboxes (returns how
        many were closed)."""
        ...

    def describe(self) -> str:
        """One line for the progress output: where jobs run."""
        ...
