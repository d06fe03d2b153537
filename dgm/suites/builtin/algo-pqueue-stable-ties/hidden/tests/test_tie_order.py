from pqueue import PriorityQueue, Scheduler


def test_equal_priorities_come_out_in_push_order():
    q = PriorityQueue()
    for name in ["zeta", "alpha", "mike", "bravo"]:
        q.push(name, 1)
    assert q.peek() == "zeta"
    assert list(q.drain()) == ["zeta", "alpha", "mike", "bravo"]


def test_ties_with_mixed_priorities():
    q = PriorityQueue()
    q.extend([("c", 2), ("b", 1), ("a", 2), ("z", 1), ("y", 0)])
    assert q.snapshot() == [("y", 0), ("b", 1), ("z", 1), ("c", 2), ("a", 2)]
    assert list(q.drain()) == ["y", "b", "z", "c", "a"]


def test_fifo_kept_across_interleaved_push_and_pop():
    q = PriorityQueue()
    q.push("first", 5)
    q.push("second", 5)
    assert q.pop() == "first"
    q.push("another", 5)
    q.push("urgent", 1)
    assert [q.pop() for _ in range(3)] == ["urgent", "second", "another"]


def test_highest_first_ties_are_fifo():
    q = PriorityQueue(highest_first=True)
    q.extend([("b", 3), ("a", 3), ("low", 1), ("c", 3)])
    assert q.pop_with_priority() == ("b", 3)
    assert q.snapshot() == [("a", 3), ("c", 3), ("low", 1)]
    assert list(q.drain()) == ["a", "c", "low"]


def test_uncomparable_items_with_same_priority():
    q = PriorityQueue()
    q.push({"id": 1}, 0)
    q.push({"id": 2}, 0)
    q.push({"id": 0}, -1)
    assert q.snapshot() == [({"id": 0}, -1), ({"id": 1}, 0), ({"id": 2}, 0)]
    assert [d["id"] for d in q.drain()] == [0, 1, 2]


def test_scheduler_jobs_with_same_priority_run_in_submit_order():
    sched = Scheduler()
    log = []
    for name in ["send-email", "resize-image", "archive"]:
        sched.submit(name, lambda n=name: log.append(n) or n.upper(), priority=2)
    sched.submit("page-oncall", lambda: "paged", priority=0)
    assert sched.pending() == ["page-oncall", "send-email", "resize-image", "archive"]
    assert sched.run_all() == [
        ("page-oncall", "paged"),
        ("send-email", "SEND-EMAIL"),
        ("resize-image", "RESIZE-IMAGE"),
        ("archive", "ARCHIVE"),
    ]
    assert log == ["send-email", "resize-image", "archive"]


def test_distinct_priorities_still_ordered():
    q = PriorityQueue()
    q.extend([(p, p) for p in [7, 3, 9, 1, 5]])
    assert list(q.drain()) == [1, 3, 5, 7, 9]
    q = PriorityQueue(highest_first=True)
    q.extend([(p, p) for p in [7, 3, 9, 1, 5]])
    assert [q.pop_with_priority() for _ in range(5)] == [(9, 9), (7, 7), (5, 5), (3, 3), (1, 1)]
