"""The embedded model's decoding threads follow the cores this process gets: every core while
nothing else is busy, else as many as a probe gets (busy work may yield, or hold its share)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from dgm.gateway import cores
from dgm.gateway.cores import Sample, ThreadGovernor, choose, other_work, threads_for
from dgm.gateway.in_flight import Calls
from tests.helpers import call_in_flight

ROOT = Path(__file__).resolve().parents[2]


def test_threads_are_the_cores_available():
    assert threads_for(2.0, cores=2) == 2
    assert threads_for(1.8, cores=2) == 2  # a little background noise keeps both
    assert threads_for(1.0, cores=2) == 1
    assert threads_for(3.1, cores=4) == 3
    assert threads_for(0.2, cores=4) == 1  # never none
    assert threads_for(9.0, cores=4) == 4  # never more than the machine's


def test_this_process_and_the_sandboxes_are_not_other_work():
    before = Sample(at=0.0, busy=0.0, own=0.0, sandboxes=0.0)
    after = Sample(at=2.0, busy=4.0, own=1.5, sandboxes=1.5)
    assert other_work(before, after) == 0.5


class Probe:
    """A probe that reports what a test sets, and counts how often it was asked."""

    def __init__(self, available: float) -> None:
        self.available, self.asked = available, 0

    def __call__(self, threads: int) -> float:
        self.asked += 1
        return min(self.available, threads)


def test_the_probe_runs_only_when_other_work_is_there_and_decides_then():
    quiet = Probe(2.0)
    assert choose(0.1, cores=2, probe=quiet) == cores.Choice(2, 0.1, None)
    assert quiet.asked == 0
    yielding = Probe(1.95)  # busy work that gives way (niced, in this session)
    assert choose(1.0, cores=2, probe=yielding).threads == 2
    assert yielding.asked == 1
    holding = Probe(1.0)  # busy work that keeps its share (another session's)
    assert choose(1.0, cores=2, probe=holding) == cores.Choice(1, 1.0, 1.0)


def test_a_busy_process_elsewhere_is_measured_and_keeps_its_core():
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
    try:
        choice = cores.measure_threads(1.0)
    finally:
        busy.kill()
        busy.wait()
    assert choice.other >= 0.7, choice
    assert choice.threads <= max(1, cores.machine_cores() - 1), choice


def probe_beside(competitor: str) -> float:
    """What `available_cores(1)` gets on one CPU that `competitor` (a busy loop started
    with these Popen keyword arguments) shares, in a process of its own."""
    code = f"""
        import os, subprocess, sys, time
        from dgm.gateway import cores
        os.sched_setaffinity(0, {{min(os.sched_getaffinity(0))}})
        busy = subprocess.Popen([sys.executable, "-c", "while True: pass"], {competitor})
        time.sleep(0.3)
        try:
            print(cores.available_cores(1, 1.0))
        finally:
            busy.kill()
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    return float(out.stdout)


def test_the_probe_gets_half_a_core_beside_an_equal_busy_loop():
    assert probe_beside("start_new_session=True") < 0.65


def test_a_niced_busy_loop_in_this_session_yields_to_the_probe():
    """Against the same loop not niced: nice 19 weighs 15 against 1024, so the probe gets
    nearly the whole core (about 2x; compared, not absolute, since other tests share it)."""
    equal = probe_beside("")
    niced = probe_beside("preexec_fn=lambda: os.nice(19)")
    assert niced > 1.25 * equal, (niced, equal)


class Clock:
    """Samples a test sets: (seconds, other work in cores since the last one)."""

    def __init__(self) -> None:
        self.at, self.busy = 0.0, 0.0

    def advance(self, seconds: float, other: float) -> None:
        self.at += seconds
        self.busy += seconds * other

    def __call__(self) -> Sample:
        return Sample(self.at, self.busy, 0.0, 0.0)


def governor(clock: Clock, probe: Probe, threads: int = 2) -> tuple[ThreadGovernor, list[int], Calls]:
    rebuilt: list[int] = []
    gov = ThreadGovernor(threads, rebuilt.append, every_s=10, sampler=clock, probe=probe, cores=2)
    return gov, rebuilt, Calls(on_idle=gov.check)


def run_call(calls: Calls) -> None:
    with calls.hold():
        pass


def calls_every(clock: Clock, calls: Calls, seconds: float, other: float, times: int = 1) -> None:
    """`times` calls, each `seconds` after the last, with `other` cores of other work between."""
    for _ in range(times):
        clock.advance(seconds, other=other)
        run_call(calls)


def test_the_count_changes_only_when_two_measurements_agree():
    clock, probe = Clock(), Probe(1.0)
    gov, rebuilt, calls = governor(clock, probe)
    calls_every(clock, calls, 11, other=1.0)
    assert rebuilt == []  # one window: a burst, perhaps
    calls_every(clock, calls, 11, other=1.0)
    assert rebuilt == [1]
    assert gov.threads == 1
    calls_every(clock, calls, 11, other=0.0)
    calls_every(clock, calls, 11, other=1.0)  # the other work came back: no change
    calls_every(clock, calls, 11, other=0.0)
    assert rebuilt == [1]
    calls_every(clock, calls, 11, other=0.0)
    assert rebuilt == [1, 2]
    assert gov.changes == [(2, 1, 1.0, 1.0), (1, 2, 0.0, None)]


def test_busy_work_that_yields_keeps_every_thread():
    clock, probe = Clock(), Probe(1.9)
    gov, rebuilt, calls = governor(clock, probe)
    calls_every(clock, calls, 11, other=1.0, times=4)
    assert rebuilt == []
    assert gov.threads == 2
    assert probe.asked == 4


def test_windows_shorter_than_the_period_are_not_judged():
    clock, probe = Clock(), Probe(0.5)
    _gov, rebuilt, calls = governor(clock, probe)
    calls_every(clock, calls, 3, other=2.0, times=5)
    assert rebuilt == []
    assert probe.asked == 1


def test_the_server_is_never_rebuilt_under_a_call_in_flight():
    clock, probe = Clock(), Probe(1.0)
    _gov, rebuilt, calls = governor(clock, probe)
    with call_in_flight(calls):
        calls_every(clock, calls, 11, other=1.0, times=3)  # calls overlap the long one: no check
        assert rebuilt == []
        assert probe.asked == 0
    calls_every(clock, calls, 11, other=1.0, times=2)
    assert rebuilt == [1]
