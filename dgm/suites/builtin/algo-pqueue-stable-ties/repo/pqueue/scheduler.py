"""Run jobs in priority order."""

from dataclasses import dataclass
from typing import Any, Callable, List, Tuple

from .heap import PriorityQueue


@dataclass
class Job:
    """A named unit of work."""

    name: str
    func: Callable[[], Any]
    priority: int = 0


class Scheduler:
    """Collects jobs and runs them, most urgent (lowest priority number) first.

    Jobs submitted with the same priority run in submission order.
    """

    def __init__(self) -> None:
        self._queue = PriorityQueue()

    def submit(self, name: str, func: Callable[[], Any], priority: int = 0) -> Job:
        job = Job(name, func, priority)
        self._queue.push(job, priority)
        return job

    def pending(self) -> List[str]:
        """Names of the queued jobs, in the order they will run."""
        return [job.name for job, _ in self._queue.snapshot()]

    def run_next(self) -> Tuple[str, Any]:
        job = self._queue.pop()
        return job.name, job.func()

    def run_all(self) -> List[Tuple[str, Any]]:
        """Run every queued job; return (name, result) pairs in run order."""
        results = []
        while self._queue:
            results.append(self.run_next())
        return results

    def __len__(self) -> int:
        return len(self._queue)
