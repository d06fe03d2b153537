import pytest

from pqueue import PriorityQueue, Scheduler


def test_lowest_priority_first():
    q = PriorityQueue()
    q.extend([("write", 3), ("read", 1), ("parse", 2)])
    assert q.peek() == "read"
    assert list(q.drain()) == ["read", "parse", "write"]
    assert not q


def test_highest_first():
    q = PriorityQueue(highest_first=True)
    q.extend([("low", 1), ("high", 9), ("mid", 5)])
    assert q.pop_with_priority() == ("high", 9)
    assert q.pop() == "mid"
    assert len(q) == 1


def test_empty_queue_errors():
    q = PriorityQueue()
    with pytest.raises(IndexError):
        q.pop()
    with pytest.raises(IndexError):
        q.peek()


def test_snapshot_does_not_consume():
    q = PriorityQueue()
    q.push("b", 2)
    q.push("a", 1)
    assert q.snapshot() == [("a", 1), ("b", 2)]
    assert len(q) == 2


def test_scheduler_runs_by_priority():
    sched = Scheduler()
    sched.submit("backup", lambda: "done", priority=5)
    sched.submit("alert", lambda: 42, priority=0)
    assert sched.pending() == ["alert", "backup"]
    assert sched.run_all() == [("alert", 42), ("backup", "done")]
    assert len(sched) == 0
