"""How a task's tests are run and read in the grading sandbox: one harness per kind of
test log (`Task.log_parser`), behind one registry. A harness owns the test run: the
configuration, the command, and the checks that catch code under test forging results."""

from __future__ import annotations

from ..task import BenchmarkError, Task
from .base import ExitCodeHarness, Harness, Reading, Run
from .languages import CargoTestHarness, CatchHarness, GoTestHarness, JestHarness, JunitHarness
from .pytest_harness import PytestHarness

HARNESSES: dict[str, type] = {
    "pytest": PytestHarness,
    "go_test": GoTestHarness,
    "cargo_test": CargoTestHarness,
    "junit": JunitHarness,
    "jest": JestHarness,
    "catch": CatchHarness,
    "exit_code": ExitCodeHarness,
}


def harness_for(task: Task) -> Harness:
    if task.log_parser not in HARNESSES:
        raise BenchmarkError(f"task {task.id}: unknown log_parser {task.log_parser!r}; one of {', '.join(HARNESSES)}")
    return HARNESSES[task.log_parser]()


__all__ = ["HARNESSES", "ExitCodeHarness", "Harness", "PytestHarness", "Reading", "Run", "harness_for"]
