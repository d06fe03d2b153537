"""The harness protocol: a prepared test run and what its output says."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..task import Task


@dataclass(frozen=True)
class Run:
    """One prepared test run: inputs for /grade, set-up after the patch and the hidden
    tests are in place (run in /repo), the command and its stdin, what `read` needs, and
    the hidden files as this run writes them (None: the task's own)."""

    command: str
    files: dict[str, bytes] = field(default_factory=dict)
    setup: str = ""
    stdin: str = ""
    state: Any = None
    hidden: dict[str, bytes] | None = None


@dataclass(frozen=True)
class Reading:
    """What a run's output says: per-test statuses, signs of tampering, the log to keep;
    tests whose twins (changed expectations an honest fix must fail) passed too; what the
    run saw that does not change the verdict; and how many of the tests the twins cover
    (tests with a literal expectation, of those that count)."""

    tests: dict[str, str]
    tamper: tuple[str, ...]
    log: str
    gamed: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    mutable: tuple[int, int] = (0, 0)


class Harness(Protocol):
    def check(self, task: Task) -> None:
        """Raise BenchmarkError, naming the task, if this harness cannot run it."""

    def prepare(self, task: Task, base: Path) -> Run:
        """The run for `task`, whose clean base repository is at `base` (trusted)."""

    def read(self, task: Task, run: Run, output: str, exit_code: int) -> Reading:
        """The results of `run` from its output and exit status (untrusted)."""


class ExitCodeHarness:
    """For suites judged by the test command's exit status alone. Nothing here can tell a
    forged exit status from a real one: prefer a harness with per-test results."""

    def check(self, task: Task) -> None:
        return None

    def prepare(self, task: Task, base: Path) -> Run:
        return Run(task.command())

    def read(self, task: Task, run: Run, output: str, exit_code: int) -> Reading:
        return Reading({"(all)": "PASSED" if exit_code == 0 else "FAILED"}, (), output)
