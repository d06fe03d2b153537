"""A suite: named tasks, each in a split (`dev` for evolution, `test` kept for transfer)."""

from __future__ import annotations

from dataclasses import dataclass

from .task import BenchmarkError, Task

SPLITS = ("dev", "test")


@dataclass(frozen=True)
class Suite:
    name: str
    tasks: tuple[Task, ...]

    def __post_init__(self) -> None:
        from .harness import harness_for

        for task in self.tasks:  # a task its harness cannot run is refused now, by name, not mid-run
            harness_for(task).check(task)

    def split(self, name: str | None) -> Suite:
        if name is None:
            return self
        if name not in SPLITS:
            raise BenchmarkError(f"unknown split {name!r}; one of {', '.join(SPLITS)}")
        return Suite(f"{self.name}:{name}", tuple(t for t in self.tasks if t.split == name))

    def task(self, task_id: str) -> Task:
        for task in self.tasks:
            if task.id == task_id:
                return task
        raise BenchmarkError(f"no task {task_id!r} in suite {self.name}")

    def only(self, task_ids: tuple[str, ...]) -> Suite:
        """The named tasks, in the suite's order (every name must be one of its tasks)."""
        if not task_ids:
            return self
        wanted = {self.task(i).id for i in task_ids}
        return Suite(self.name, tuple(t for t in self.tasks if t.id in wanted))

    def counts(self) -> dict[str, int]:
        return {s: sum(t.split == s for t in self.tasks) for s in SPLITS}

    def counts_by_language(self) -> dict[str, dict[str, int]]:
        """language -> split -> tasks, for suites whose tasks name their language."""
        languages = sorted({t.language for t in self.tasks if t.language})
        return {
            lang: {s: sum(t.language == lang and t.split == s for t in self.tasks) for s in SPLITS}
            for lang in languages
        }
