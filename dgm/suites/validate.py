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

    def coverage(self) -> tuple[int, int]:
        """Tests that must pass with a literal expectation (so with twins), of all, over the references."""
        return sum(r.reference.mutable[0] for r in self.rows), sum(r.reference.mutable[1] for r in self.rows)

    def summary(self) -> str:
        n = len(self.rows)
        ref = sum(r.reference.resolved for r in self.rows)
        empty = sum(r.empty.resolved for r in self.rows)
        covered, total = self.coverage()
        share = f" ({covered / total:.0%})" if total else ""
        flagged = {why: sum(r.reference.reason == why for r in self.rows) for why in ("gamed", "tampered")}
        return (
            f"tasks={n} reference_resolved={ref}/{n} empty_resolved={empty}/{n} "
            f"seconds={self.seconds:.0f} {'OK' if self.ok else 'FAILED'}\n"
            f"twins: {covered}/{total} tests that must pass have a literal expectation{share}; "
            f"references judged gamed {flagged['gamed']}, tampered {flagged['tampered']}"
        )


@dataclass(frozen=True)
class Tally:
    """Where a validation stands after a task: for progress lines."""

    done: int
    total: int
    reference_resolved: int
    empty_resolved: int
    elapsed_s: float

    @property
    def eta_s(self) -> float:
        """Seconds left at the pace so far."""
        return self.elapsed_s / self.done * (self.total - self.done) if self.done else float("nan")


def validate(
    suite: Suite, grader: Grader, workers: int = 2, progress: Callable[[Row, Tally], None] | None = None
) -> Report:
    """Grade each task's reference and empty patch (`workers` tasks at once); `progress`
    hears of each task as it finishes."""
    start = time.monotonic()

    def one(task) -> Row:
        return Row(task.id, grader.grade(task, task.reference_patch), grader.grade(task, ""))

    rows: list[Row] = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        for future in concurrent.futures.as_completed([pool.submit(one, t) for t in suite.tasks]):
            rows.append(future.result())
            if progress:
                ref, empty = sum(r.reference.resolved for r in rows), sum(r.empty.resolved for r in rows)
                progress(rows[-1], Tally(len(rows), len(suite.tasks), ref, empty, time.monotonic() - start))
    order = {t.id: i for i, t in enumerate(suite.tasks)}
    return Report(tuple(sorted(rows, key=lambda r: order[r.task_id])), time.monotonic() - start)
