"""The task record and its JSON form."""

from dataclasses import dataclass
from datetime import date

PRIORITIES = {1: "high", 2: "normal", 3: "low"}


@dataclass
class Task:
    task_id: int
    title: str
    due: date | None = None
    priority: int = 2
    done: bool = False

    def __post_init__(self):
        if self.priority not in PRIORITIES:
            raise ValueError(f"priority must be one of {sorted(PRIORITIES)}")

    def to_dict(self) -> dict:
        return {
            "id": self.task_id,
            "title": self.title,
            "due": self.due.isoformat() if self.due else None,
            "priority": self.priority,
            "done": self.done,
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Task":
        due = data.get("due")
        return cls(
            task_id=data["id"],
            title=data["title"],
            due=date.fromisoformat(due) if due else None,
            priority=data.get("priority", 2),
            done=data.get("done", False),
        )
