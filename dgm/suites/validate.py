"""Proof that a suite's harness is trustworthy: every reference patch resolves its task
and no empty patch does."""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Callable
from dataclasses import dataclass

from .grader import Grader, Verdict
from .suite import Suite


@dataclass(frozen=True)
class Row:
    task_id: str
    reference: Verdict
    empty: Verdict

    @property
    def ok(self) -> bool:
        return self.reference.resolved and not self.empty.resolved


@dataclass(frozen=True)
class Report:
    rows: tuple[Row, ...]
    seconds: float

    @property
    def ok(self) -> bool:
        return bool(self.rows) and all(r.ok for r in self.rows)

    def summary(self) -> str:
        n = len(self.rows)
        ref = sum(r.reference.resolved for r in self.rows)
        empty = sum(r.empty.resolved for r in self.rows)
        return (
            f"tasks={n} reference_resolved={ref}/{n} empty_resolved={empty}/{n} "
            f"seconds={self.seconds:.0f} {'OK' if self.ok else 'FAILED'}"
        )


def validate(suite: Suite, grader: Grader, workers: int = 2, progress: Callable[[Row], None] | None = None) -> Report:
    start = time.monotonic()

    def one(task) -> Row:
        return Row(task.id, grader.grade(task, task.reference_patch), grader.grade(task, ""))

    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        for row in pool.map(one, suite.tasks):
            rows.append(row)
            if progress:
                progress(row)
    return Report(tuple(rows), time.monotonic() - start)
