import json
from datetime import date

import pytest

from todo import JsonStore, TodoList, render_agenda

TODAY = date(2024, 5, 10)


@pytest.fixture
def todo(tmp_path):
    return TodoList(JsonStore(tmp_path / "todo.json"))


def test_tasks_are_persisted(tmp_path, todo):
    todo.add("Pay rent", date(2024, 6, 1), priority=1)
    todo.add("Read book")
    again = TodoList(JsonStore(tmp_path / "todo.json"))
    assert [(t.title, t.due, t.priority) for t in again.tasks] == [
        ("Pay rent", date(2024, 6, 1), 1), ("Read book", None, 2)]
    data = json.loads((tmp_path / "todo.json").read_text())
    assert data["tasks"][1]["due"] is None


def test_agenda_sorted_by_due_date(todo):
    todo.add("Later", date(2024, 5, 20))
    todo.add("Sooner", date(2024, 5, 12))
    todo.add("Late", date(2024, 5, 1))
    assert [i.task.title for i in todo.agenda(TODAY)] == ["Late", "Sooner", "Later"]


def test_same_day_by_priority(todo):
    todo.add("Low", date(2024, 5, 12), priority=3)
    todo.add("High", date(2024, 5, 12), priority=1)
    assert [i.task.title for i in todo.agenda(TODAY)] == ["High", "Low"]


def test_completed_tasks_are_hidden(todo):
    t = todo.add("Done soon", date(2024, 5, 11))
    todo.complete(t.task_id)
    assert todo.agenda(TODAY) == []


def test_overdue_flag_and_rendering(todo):
    todo.add("Call mum", date(2024, 5, 9), priority=1)
    todo.add("Dentist", date(2024, 5, 10))
    assert render_agenda(todo.agenda(TODAY)) == (
        "[1] 2024-05-09 Call mum (high) (overdue)\n[2] 2024-05-10 Dentist (normal)")


def test_invalid_priority(todo):
    with pytest.raises(ValueError):
        todo.add("x", priority=5)
