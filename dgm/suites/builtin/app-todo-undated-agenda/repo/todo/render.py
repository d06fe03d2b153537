"""Text output for the `todo agenda` command."""

from .models import PRIORITIES
from .service import AgendaItem


def render_agenda(items: list[AgendaItem]) -> str:
    if not items:
        return "Nothing to do."
    lines = []
    for item in items:
        task = item.task
        due = task.due.isoformat() if task.due else "someday"
        flag = " (overdue)" if item.overdue else ""
        lines.append(f"[{task.task_id}] {due} {task.title} ({PRIORITIES[task.priority]}){flag}")
    return "\n".join(lines)
