"""Persisting tasks as a JSON document."""

import json
from pathlib import Path

from .models import Task


class JsonStore:
    def __init__(self, path: Path):
        self.path = Path(path)

    def load(self) -> list[Task]:
        if not self.path.exists():
            return []
        data = json.loads(self.path.read_text(encoding="utf-8"))
        return [Task.from_dict(item) for item in data["tasks"]]

    def save(self, tasks: list[Task]) -> None:
        payload = {"version": 1, "tasks": [task.to_dict() for task in tasks]}
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(payload, indent=2), encoding="utf-8")
        tmp.replace(self.path)
