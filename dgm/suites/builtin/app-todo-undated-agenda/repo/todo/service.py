"""Adding, completing and listing tasks."""

from dataclasses import dataclass
from datetime import date

from .models import Task
from .storage import JsonStore


@dataclass(frozen=True)
class AgendaItem:
    task: Task
    overdue: bool


class TodoList:
    def __init__(self, store: JsonStore):
        self.store = store
        self.tasks = store.load()

    def add(self, title: str, due: date | None = None, priority: int = 2) -> Task:
        next_id = max((t.task_id for t in self.tasks), default=0) + 1
        task = Task(next_id, title.strip(), due, priority)
        self.tasks.append(task)
        self.store.save(self.tasks)
        return task

    def complete(self, task_id: int) -> None:
        for task in self.tasks:
            if task.task_id == task_id:
                task.done = True
                self.store.save(self.tasks)
                return
        raise KeyError(task_id)

    def agenda(self, today: date) -> list[AgendaItem]:
        """Open tasks, soonest due date first; same due date: higher priority (1) first, then oldest."""
        open_tasks = [t for t in self.tasks if not t.done]
        open_tasks.sort(key=lambda t: (t.due, t.priority, t.task_id))
        return [AgendaItem(t, t.due < today) for t in open_tasks]
