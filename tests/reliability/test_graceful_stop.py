"""SIGTERM and Ctrl-C stop a run cleanly: in-flight jobs finish (or, on a second signal,
go back to the queue), sandboxes close, the gateway shuts down; `dgm evolve` resumes."""

from __future__ import annotations

import signal
import time

import pytest

from archive import Archive
from tests.reliability.conftest import evolve_cmd, sandbox_processes, start

# alone: they check that no sandbox at all is left running on the machine
pytestmark = [pytest.mark.faults, pytest.mark.alone]
FLAGS = ["--workers", "2", "--max-expansions", "4", "--max-evals", "15", "--seed", "5"]


def wait_for(run, evaluations: int, proc, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        if (run / "archive.db").exists():
            with Archive.for_run(run) as ar:
                if len(ar.evaluations()) >= evaluations and ar.jobs.counts()["running"] >= 1:
                    return
        time.sleep(0.1)
    raise AssertionError("the run did not get going")


def finish(run, tasks, script) -> None:
    proc = start(evolve_cmd(run, tasks, f"scripted:{script}", *FLAGS))
    out, _ = proc.communicate(timeout=600)
    assert proc.returncode == 0, out[-2000:]
    with Archive.for_run(run) as ar:
        assert ar.integrity_check() == []
        assert len(ar.evaluations()) == 15
        assert len(ar.nodes()) == 5
        keys = [(e.node_id, e.task_id) for e in ar.evaluations()]
        assert len(keys) == len(set(keys))


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_one_signal_finishes_running_jobs_then_stops(bwrap, engine_env, tmp_path, sig):
    tasks, script = engine_env
    run = tmp_path / "run"
    proc = start(evolve_cmd(run, tasks, f"scripted:{script}", *FLAGS))
    wait_for(run, 2, proc)
    proc.send_signal(sig)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0, out[-2000:]
    assert f"{sig.name} received" in out
    assert "resume with: dgm evolve" in out
    with Archive.for_run(run) as ar:
        counts = ar.jobs.counts()
        assert counts["running"] == 0
        assert counts["queued"] == 0
        assert len(ar.evaluations()) < 15
    assert sandbox_processes() == []
    finish(run, tasks, script)


def test_a_second_signal_stops_at_once_and_requeues(bwrap, engine_env, tmp_path):
    tasks, script = engine_env
    run = tmp_path / "run"
    proc = start(evolve_cmd(run, tasks, f"scripted:{script}", *FLAGS))
    wait_for(run, 1, proc)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out[-2000:]
    with Archive.for_run(run) as ar:
        counts = ar.jobs.counts()
        requeued = ar.jobs.list(state="queued")
        assert counts["running"] == 0
        assert all(j.attempts == 0 and "run stopped" in j.error for j in requeued)
    if requeued:
        assert "re-queued for the next run" in out
    time.sleep(0.3)
    assert sandbox_processes() == []
    finish(run, tasks, script)
