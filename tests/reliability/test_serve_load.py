"""`dgm serve` beside a run: it keeps answering while the run is killed and resumed, the
run finishes as it would alone, and its job throughput holds (within 5%) while a poller
asks the server for what the page does, four times as often.

Throughput is compared between twins: two copies of the same run started together, each
on a core of its own, one watched (server and poller on its core) and one not. Runs one
after another on this machine differ by 10-15% among themselves; twins, which share the
machine's moment, differ by under 1% when neither is watched."""

from __future__ import annotations

import json
import os
import random
import shutil
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from archive import Archive, ArchiveError
from tests.cli.test_serve import start_serve
from tests.reliability.conftest import evolve_cmd, start
from tests.reliability.test_torture import FLAGS, snapshot_of

pytestmark = pytest.mark.minutes(6)  # see tests/conftest.py

PATHS = ("api/version", "api/tree", "api/overview", "api/node/1")


class Poller:
    """`dgm serve` on `run` (started once its archive can be read) and a thread fetching
    PATHS every 0.5 s (on `cpus` if given); it records every failure, the last tree it saw
    and when the server first answered."""

    def __init__(self, run: Path, cpus: set[int] | None = None):
        self.run, self.stop, self.cpus = run, threading.Event(), cpus
        self.ready_at: float | None = None  # when the server first answered (epoch seconds)
        self.errors: list[str] = []
        self.polls, self.tree_size = 0, 0
        self.thread = threading.Thread(target=self._poll, daemon=True)
        self.server = None

    def __enter__(self) -> Poller:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=30)
        if self.server:
            self.server.terminate()
            self.server.wait(timeout=10)

    def _readable(self) -> bool:
        try:
            with Archive.for_run(self.run, read_only=True) as ar:
                return bool(ar.nodes())
        except ArchiveError:  # not there yet, or still being created
            return False

    def _poll(self) -> None:
        if self.cpus is not None:  # this thread only; the server it starts inherits it
            os.sched_setaffinity(0, self.cpus)
        while not self.stop.is_set() and not self._readable():
            time.sleep(0.05)
        if self.stop.is_set():
            return
        self.server, url = start_serve(self.run)
        self.ready_at = time.time()
        while not self.stop.is_set():
            for path in PATHS:
                try:
                    with urllib.request.urlopen(url + path, timeout=30) as reply:
                        body = reply.read()
                    if path == "api/tree":
                        self.tree_size = len(json.loads(body)["nodes"])
                except OSError as exc:
                    self.errors.append(f"{path}: {exc}")
            self.polls += 1
            self.stop.wait(0.5)


def test_serve_keeps_answering_while_the_run_is_killed_and_resumed(bwrap, engine_env, tmp_path):
    tasks, script = engine_env
    run = tmp_path / "run"
    cmd = evolve_cmd(run, tasks, f"scripted:{script}", *FLAGS, "--seed", "11")
    rng, kills = random.Random(7), 0
    with Poller(run) as poller:
        while True:
            proc = start(cmd)
            if kills < 3:
                deadline = time.monotonic() + 60
                while not (run / "archive.db").exists() and time.monotonic() < deadline:
                    time.sleep(0.05)
                time.sleep(rng.uniform(1.0, 4.0))
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
                    kills += 1
                    continue
            out, _ = proc.communicate(timeout=600)
            assert proc.returncode == 0, out[-3000:]
            break
        time.sleep(1.5)  # one more round of polls after the end
    assert kills >= 2
    assert poller.polls >= 10
    assert poller.errors == []
    evals, nodes, running = snapshot_of(run)  # consistent: nothing lost, nothing twice
    assert (evals, nodes, running) == (18, 6, [])
    assert poller.tree_size == nodes


TWIN_FLAGS = ["--workers", "1", "--max-expansions", "5", "--max-evals", "18", "--fm-backoff", "0.05", "--seed", "5"]


def job_times(run: Path) -> dict[tuple[int, str], tuple[float, float]]:
    """Every finished job's (started, finished), by id and kind."""
    with Archive.for_run(run) as ar:
        rows = ar.db.execute("SELECT id, kind, started_at, finished_at FROM jobs WHERE state = 'done'").fetchall()
    return {(id_, kind): (started, finished) for id_, kind, started, finished in rows}


def twins(tasks: Path, script: Path, root: Path, core: int) -> tuple[float, int]:
    """Twin runs of one worker each, the watched one and its server and poller on `core`,
    the other on the other core. The throughput of the watched twin over that of the other,
    over the jobs started once the server answered (the same jobs in both: one worker and one
    seed make the same jobs in the same order), and how many jobs that was."""
    watched, alone = root / "watched", root / "alone"
    procs = [
        start(["taskset", "-c", str(cpu), *evolve_cmd(run, tasks, f"scripted:{script}", *TWIN_FLAGS)])
        for run, cpu in ((watched, core), (alone, 1 - core))
    ]
    with Poller(watched, cpus={core}) as poller:
        outs = [proc.communicate(timeout=600)[0] for proc in procs]
    for proc, out in zip(procs, outs, strict=True):
        assert proc.returncode == 0, out[-3000:]
    w, a = job_times(watched), job_times(alone)
    assert sorted(w) == sorted(a)
    assert poller.ready_at is not None
    assert poller.errors == []
    first = min(job for job, (started, _) in w.items() if started >= poller.ready_at)

    def span(times: dict[tuple[int, str], tuple[float, float]]) -> float:
        return max(finished for _, finished in times.values()) - times[first][0]

    return span(a) / span(w), sum(1 for job in w if job >= first)


@pytest.mark.slow
@pytest.mark.alone  # a throughput figure: no other test may load the machine meanwhile
def test_a_run_watched_by_serve_keeps_its_throughput(bwrap, engine_env, tmp_path):
    """Three pairs of twins, the watched core alternating; their mean ratio must be at
    least 0.95. (Measured here: single ratios 0.95-1.01, means near 0.98; the server and the
    poller cost the watched core about 1.5% of its time.)"""
    if len(os.sched_getaffinity(0)) < 2 or shutil.which("taskset") is None:
        pytest.fail("the twin runs need two cores and taskset (util-linux)")
    tasks, script = engine_env
    found = [twins(tasks, script, tmp_path / f"pair{i}", core) for i, core in enumerate((0, 1, 0))]
    assert all(jobs >= 10 for _, jobs in found), found  # measured over most of the run
    assert sum(ratio for ratio, _ in found) / len(found) >= 0.95, found
