"""`dgm serve` beside a run: it keeps answering while the run is killed and resumed, the
run finishes as it would alone, and its job throughput holds (within 5%) while a poller
asks the server for what the page does, four times as often."""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from archive import Archive, ArchiveError
from tests.cli.test_serve import start_serve
from tests.reliability.conftest import evolve_cmd, start
from tests.reliability.test_torture import FLAGS, snapshot_of

PATHS = ("api/version", "api/tree", "api/overview", "api/node/1")


class Poller:
    """`dgm serve` on `run` (started once its archive can be read) and a thread fetching
    PATHS every 0.5 s; it records every failure and the last tree it saw."""

    def __init__(self, run: Path):
        self.run, self.stop = run, threading.Event()
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
        while not self.stop.is_set() and not self._readable():
            time.sleep(0.05)
        if self.stop.is_set():
            return
        self.server, url = start_serve(self.run)
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
    assert kills >= 2 and poller.polls >= 10
    assert poller.errors == []
    evals, nodes, running = snapshot_of(run)  # consistent: nothing lost, nothing twice
    assert (evals, nodes, running) == (18, 6, [])
    assert poller.tree_size == nodes


def jobs_per_second(tasks: Path, script: Path, run: Path, watched: bool) -> float:
    started = time.monotonic()
    with Poller(run) if watched else contextlib.nullcontext():
        proc = start(evolve_cmd(run, tasks, f"scripted:{script}", *FLAGS, "--seed", "5"))
        out, _ = proc.communicate(timeout=600)
        elapsed = time.monotonic() - started
    assert proc.returncode == 0, out[-3000:]
    with Archive.for_run(run) as ar:
        return ar.jobs.counts()["done"] / elapsed


@pytest.mark.slow
def test_a_run_watched_by_serve_keeps_its_throughput(bwrap, engine_env, tmp_path):
    """Two runs alone and two watched, alternating; the best of each pair of kinds compared
    (the best of two is steadier than one on a busy machine; BENCHMARKS.md has the median
    of more runs on a quiet one)."""
    tasks, script = engine_env
    alone, watched = [], []
    for i in range(2):
        alone.append(jobs_per_second(tasks, script, tmp_path / f"alone{i}", watched=False))
        watched.append(jobs_per_second(tasks, script, tmp_path / f"watched{i}", watched=True))
    assert max(watched) >= 0.95 * max(alone), (alone, watched)
