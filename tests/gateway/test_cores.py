"""The embedded model's decoding threads follow the cores other work leaves it."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

from dgm.gateway import cores
from dgm.gateway.cores import Sample, ThreadGovernor, decode_threads, other_work


def test_threads_are_the_cores_other_work_leaves():
    assert decode_threads(0.0, cores=2) == 2
    assert decode_threads(0.2, cores=2) == 2  # a little background noise keeps both
    assert decode_threads(1.0, cores=2) == 1
    assert decode_threads(0.9, cores=4) == 3
    assert decode_threads(7.5, cores=4) == 1  # never none


def test_this_process_and_the_sandboxes_are_not_other_work():
    before = Sample(at=0.0, busy=0.0, own=0.0, sandboxes=0.0)
    after = Sample(at=2.0, busy=4.0, own=1.5, sandboxes=1.5)
    assert other_work(before, after) == 0.5


def test_a_busy_process_elsewhere_is_measured():
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
    try:
        time.sleep(0.3)
        threads, other = cores.measure_threads(1.0)
    finally:
        busy.kill()
        busy.wait()
    assert other >= 0.7, other
    assert threads <= max(1, cores.machine_cores() - 1)


class Clock:
    """Samples a test sets: (seconds, other work in cores since the last one)."""

    def __init__(self) -> None:
        self.at, self.busy = 0.0, 0.0

    def advance(self, seconds: float, other: float) -> None:
        self.at += seconds
        self.busy += seconds * other

    def __call__(self) -> Sample:
        return Sample(self.at, self.busy, 0.0, 0.0)


def governor(clock: Clock, threads: int = 2):
    rebuilt: list[int] = []
    return ThreadGovernor(threads, rebuilt.append, every_s=10, sampler=clock, cores=2), rebuilt


def run_call(gov: ThreadGovernor) -> None:
    with gov.call():
        pass


def test_the_count_changes_only_when_two_windows_agree():
    clock = Clock()
    gov, rebuilt = governor(clock)
    clock.advance(11, other=1.0)
    run_call(gov)
    assert rebuilt == []  # one window: a burst, perhaps
    clock.advance(11, other=1.0)
    run_call(gov)
    assert rebuilt == [1] and gov.threads == 1
    clock.advance(11, other=0.0)
    run_call(gov)
    clock.advance(11, other=1.0)  # the other work came back: no change
    run_call(gov)
    clock.advance(11, other=0.0)
    run_call(gov)
    assert rebuilt == [1]
    clock.advance(11, other=0.0)
    run_call(gov)
    assert rebuilt == [1, 2] and gov.changes == [(2, 1, 1.0), (1, 2, 0.0)]


def test_windows_shorter_than_the_period_are_not_judged():
    clock = Clock()
    gov, rebuilt = governor(clock)
    for _ in range(5):
        clock.advance(3, other=2.0)
        run_call(gov)
    assert rebuilt == []  # 15 s: one window only


def test_the_server_is_never_rebuilt_under_a_call_in_flight():
    clock = Clock()
    gov, rebuilt = governor(clock)
    entered, leave = threading.Event(), threading.Event()

    def long_call() -> None:
        with gov.call():
            entered.set()
            leave.wait(5)

    worker = threading.Thread(target=long_call)
    worker.start()
    entered.wait(5)
    for _ in range(3):
        clock.advance(11, other=1.0)
        run_call(gov)  # calls overlap the long one: no check
    assert rebuilt == []
    leave.set()
    worker.join()
    clock.advance(11, other=1.0)
    run_call(gov)
    clock.advance(11, other=1.0)
    run_call(gov)
    assert rebuilt == [1]
