"""How many cores the embedded model can decode on: the machine's, less those other work
holds against it. Sandboxes do not count: they run at a low CPU weight (`sandbox.cgroups`)
and give their cores up the moment the model wants them.

Why it matters: llama.cpp's threads meet at a spinning barrier at every step, so a thread
whose core another process holds stalls every other one. On a 2-core machine with one core
busy in another session, 2 threads decode at 0.6 tokens/s and 1 thread at 17.8 (2 threads
quiet: 27); see BENCHMARKS.md.

Two measurements, the second only when the first finds other work: how busy the machine
is without this process and the sandboxes (`other_work`, /proc/stat, costs nothing), and
how much CPU this process gets when it asks for every core (`available_cores`, a
third of a second of hashing on each). Busy is not the same as holding: a niced job in
this session yields to the model, while with autogroups (most desktops) a niced job in
another terminal still gets its session's full share, and only the probe can tell."""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sandbox.cgroups import sandboxes_cpu_seconds

log = logging.getLogger(__name__)
TICKS = os.sysconf("SC_CLK_TCK")
MARGIN = 0.25  # a core busy less than this much of the time is still counted as free
PROBE_S = 0.3  # how long `available_cores` asks for every core
_CHUNK = bytes(1 << 20)  # hashed by the probe: ~1 ms each, outside the GIL


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


def threads_for(available: float, cores: int | None = None) -> int:
    """Threads for `available` cores: never more than the machine has, never 0."""
    cores = cores or machine_cores()
    return max(1, min(cores, int(available + MARGIN)))


def available_cores(threads: int | None = None, window_s: float = PROBE_S) -> float:
    """The cores this process gets now when `threads` of its threads want one each (default:
    every core): the sum, over threads that hash for `window_s`, of CPU time / wall time.
    Priority decides it, as it decides the model's threads' share: nice within a session,
    each session's share across them (autogroups), cgroup weights."""
    threads = threads or machine_cores()
    shares = [0.0] * threads
    start = threading.Barrier(threads)

    def spin(i: int) -> None:
        start.wait()
        cpu, wall = time.thread_time(), time.monotonic()
        end = wall + window_s
        while time.monotonic() < end:
            hashlib.sha256(_CHUNK)
        shares[i] = (time.thread_time() - cpu) / (time.monotonic() - wall)

    spinners = [threading.Thread(target=spin, args=(i,), name=f"dgm-core-probe-{i}") for i in range(threads)]
    for spinner in spinners:
        spinner.start()
    for spinner in spinners:
        spinner.join()
    return sum(shares)


@dataclass(frozen=True)
class Choice:
    threads: int
    other: float  # cores other work kept busy (/proc/stat)
    available: float | None  # cores the probe got, where it ran (None: no other work, no probe)


def choose(other: float, cores: int | None = None, probe: Callable[[int], float] = available_cores) -> Choice:
    """Every core while other work leaves them idle; else as many as a probe gets, since
    busy work may yield (niced, here) or not (another session's, equal weight)."""
    cores = cores or machine_cores()
    if threads_for(cores - other, cores) == cores:
        return Choice(cores, round(other, 2), None)
    available = probe(cores)
    return Choice(threads_for(available, cores), round(other, 2), round(available, 2))


def measure_threads(window_s: float = 0.5) -> Choice:
    """The threads to decode on, from `window_s` of /proc/stat and the probe where needed."""
    before = sample()
    time.sleep(window_s)
    return choose(other_work(before, sample()))


class ThreadGovernor:
    """Re-chooses the decoding threads as a run goes on, since other work starts and ends.

    `check` runs when a call comes to a server with none in flight (`Calls(on_idle=...)`,
    which holds other calls back meanwhile): at most every `every_s` it measures, and the
    server is rebuilt with a new count (losing only the slots' prompt caches) when two
    measurements in a row agree on it."""

    def __init__(
        self,
        threads: int,
        rebuild: Callable[[int], None],
        every_s: float = 15.0,
        sampler: Callable[[], Sample] = sample,
        probe: Callable[[int], float] = available_cores,
        cores: int | None = None,
    ):
        self.threads, self.rebuild, self.every_s = threads, rebuild, every_s
        self.sampler, self.probe = sampler, probe
        self.cores = cores or machine_cores()
        self.changes: list[tuple[int, int, float, float | None]] = []  # (from, to, other work, available)
        self._last = sampler()
        self._pending: int | None = None

    def check(self) -> None:
        now = self.sampler()
        if now.at - self._last.at < self.every_s:
            return
        choice = choose(other_work(self._last, now), self.cores, self.probe)
        target, self._last = choice.threads, self.sampler()  # the probe's own time is not a window
        if target == self.threads or self._pending != target:
            self._pending = None if target == self.threads else target
            return
        log.info("embedded model: %d threads -> %d (%s)", self.threads, target, choice)
        self.rebuild(target)
        self.changes.append((self.threads, target, choice.other, choice.available))
        self.threads, self._pending = target, None
