"""How many cores the embedded model can decode on: the machine's, less those other work keeps
busy. Sandboxes do not count against it: they run at a low CPU weight
(`sandbox.cgroups`) and give their cores up the moment the model wants them.

Why it matters: llama.cpp's threads meet at a spinning barrier at every step, so a thread
whose core another process holds stalls every other one. On a 2-core machine with one core
busy in another session, 2 threads decode at 0.6 tokens/s and 1 thread at 17.8 (2 threads
quiet: 27); see BENCHMARKS.md. Nice does not prevent it: with autogroups (most desktops)
a niced job in another terminal still gets its session's full share."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sandbox.cgroups import sandboxes_cpu_seconds

log = logging.getLogger(__name__)
TICKS = os.sysconf("SC_CLK_TCK")
MARGIN = 0.25  # a core busy less than this much of the time is still counted as free


def machine_cores() -> int:
    return len(os.sched_getaffinity(0)) or 1


@dataclass(frozen=True)
class Sample:
    at: float  # monotonic seconds
    busy: float  # CPU seconds used on the whole machine so far
    own: float  # ... by this process (the model's threads among them)
    sandboxes: float  # ... by the low-weight sandboxes (0 where they cannot be told apart)


def _machine_busy() -> float:
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in fields[:8])
    return (user + nice + system + irq + softirq + steal) / TICKS


def _own_busy() -> float:
    stat = Path("/proc/self/stat").read_text()
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (every thread)


def sample() -> Sample:
    return Sample(time.monotonic(), _machine_busy(), _own_busy(), sandboxes_cpu_seconds() or 0.0)


def other_work(before: Sample, after: Sample) -> float:
    """Cores kept busy between two samples by work that is neither this process nor a sandbox."""
    wall = after.at - before.at
    if wall <= 0:
        return 0.0
    others = (after.busy - before.busy) - (after.own - before.own) - (after.sandboxes - before.sandboxes)
    return max(0.0, others / wall)


def decode_threads(other: float, cores: int | None = None) -> int:
    """Threads for the cores `other` work leaves: never more than the machine has, never 0."""
    cores = cores or machine_cores()
    return max(1, min(cores, int(cores - other + MARGIN)))


def measure_threads(window_s: float = 0.5) -> tuple[int, float]:
    """(threads, the other work in cores) measured over `window_s` now."""
    before = sample()
    time.sleep(window_s)
    other = other_work(before, sample())
    return decode_threads(other), other


class ThreadGovernor:
    """Re-chooses the decoding threads as a run goes on, since other work starts and ends.

    The server is rebuilt with a new count only when no call is in flight (so no call is
    lost, only the slots' prompt caches), and only when two measuring windows in a row of at
    least `every_s` agree on it. Calls wait while it is rebuilt."""

    def __init__(
        self,
        threads: int,
        rebuild: Callable[[int], None],
        every_s: float = 15.0,
        sampler: Callable[[], Sample] = sample,
        cores: int | None = None,
    ):
        self.threads, self.rebuild, self.every_s, self.sampler = threads, rebuild, every_s, sampler
        self.cores = cores or machine_cores()
        self.changes: list[tuple[int, int, float]] = []  # (from, to, other work in cores)
        self._cond = threading.Condition()
        self._in_flight = 0
        self._rebuilding = False
        self._last = sampler()
        self._pending: int | None = None

    @contextmanager
    def call(self) -> Iterator[None]:
        """Hold around every call to the server."""
        with self._cond:
            while self._rebuilding:
                self._cond.wait()
            if self._in_flight == 0:
                self._check()
            self._in_flight += 1
        try:
            yield
        finally:
            with self._cond:
                self._in_flight -= 1
                self._cond.notify_all()

    def _check(self) -> None:
        now = self.sampler()
        if now.at - self._last.at < self.every_s:
            return
        other = other_work(self._last, now)
        target, self._last = decode_threads(other, self.cores), now
        if target == self.threads or self._pending != target:
            self._pending = None if target == self.threads else target
            return
        log.info("embedded model: %d threads -> %d (other work keeps %.1f cores busy)", self.threads, target, other)
        self._rebuilding = True
        try:
            self.rebuild(target)
            self.changes.append((self.threads, target, round(other, 2)))
            self.threads, self._pending = target, None
        finally:
            self._rebuilding = False
            self._cond.notify_all()
