"""A run evaluates its easy tasks first (they finish soonest), in an order its seed fixes."""

from __future__ import annotations

from dgm.engine.status import task_order
from dgm.suites import load_suite


def test_easy_tasks_come_first_then_medium_then_hard_then_unknown():
    difficulty = {"a": "hard", "b": "easy", "c": "medium", "d": "", "e": "easy", "f": "hard"}
    order = task_order(list(difficulty), seed=7, difficulty=difficulty)
    assert [difficulty[t] for t in order] == ["easy", "easy", "medium", "hard", "hard", ""]
    assert order == task_order(list(reversed(difficulty)), seed=7, difficulty=difficulty)  # same seed, same order


def test_the_seed_still_shuffles_tasks_of_one_difficulty():
    ids = [f"t{i:02d}" for i in range(30)]
    orders = {task_order(ids, seed, dict.fromkeys(ids, "easy")) for seed in range(5)}
    assert len(orders) == 5
    assert task_order(ids, 3) == task_order(ids, 3, {})  # no difficulty known: the seed's shuffle alone


def test_the_builtin_suites_first_tasks_are_easy():
    tasks = load_suite("builtin:dev").tasks
    order = task_order([t.id for t in tasks], 0, {t.id: t.difficulty for t in tasks})
    by_id = {t.id: t.difficulty for t in tasks}
    easy = sum(1 for t in tasks if t.difficulty == "easy")
    assert easy > 0
    assert all(by_id[t] == "easy" for t in order[:easy])
