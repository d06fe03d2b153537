from datetime import date

import pytest

from todo import JsonStore, TodoList, render_agenda

TODAY = date(2024, 5, 10)


@pytest.fixture
def todo(tmp_path):
    return TodoList(JsonStore(tmp_path / "todo.json"))


def test_undated_tasks_come_after_dated_ones(todo):
    todo.add("Learn piano")
    todo.add("Dentist", date(2024, 5, 20), priority=3)
    todo.add("Taxes", date(2024, 5, 1))
    todo.add("Fix bike", priority=1)
    titles = [i.task.title for i in todo.agenda(TODAY)]
    assert titles == ["Taxes", "Dentist", "Fix bike", "Learn piano"]


def test_undated_tasks_ordered_by_priority_then_age(todo):
    todo.add("B", priority=3)
    todo.add("C", priority=1)
    todo.add("A", priority=3)
    todo.add("D")
    assert [i.task.title for i in todo.agenda(TODAY)] == ["C", "D", "B", "A"]


def test_undated_tasks_are_never_overdue(todo):
    todo.add("Someday")
    todo.add("Old", date(2020, 1, 1))
    items = todo.agenda(TODAY)
    assert [(i.task.title, i.overdue) for i in items] == [("Old", True), ("Someday", False)]


def test_render_agenda_with_undated_tasks(tmp_path, todo):
    todo.add("Call mum", date(2024, 5, 9), priority=1)
    todo.add("Learn piano", priority=3)
    reloaded = TodoList(JsonStore(tmp_path / "todo.json"))
    assert render_agenda(reloaded.agenda(TODAY)) == (
        "[1] 2024-05-09 Call mum (high) (overdue)\n[2] someday Learn piano (low)")


def test_only_dated_tasks_unchanged(todo):
    todo.add("Later", date(2024, 5, 20), priority=1)
    todo.add("Same day low", date(2024, 5, 12), priority=3)
    todo.add("Same day high", date(2024, 5, 12), priority=1)
    todo.add("Yesterday", date(2024, 5, 9))
    items = todo.agenda(TODAY)
    assert [i.task.title for i in items] == ["Yesterday", "Same day high", "Same day low", "Later"]
    assert [i.overdue for i in items] == [True, False, False, False]
