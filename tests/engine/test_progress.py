"""The progress line and panel show the work in flight: each running job with its age, its
model calls and tokens, and a model call still being answered (read live from the
gateway), so a slow first call never reads as `0 tokens` with nothing going on."""

from __future__ import annotations

import concurrent.futures
import logging
import time
from types import SimpleNamespace

from dgm.engine.engine import RunState
from dgm.engine.policies import InFlight
from dgm.engine.progress import LiveProgress, Progress, RunningJob, duration
from dgm.gateway import Gateway, RetryPolicy
from tests.gateway.conftest import HELLO
from tests.gateway.test_live import Blocking, ask

EMPTY_VIEW = SimpleNamespace(nodes={}, valid=lambda: [], evaluations=lambda: 0)
FLIGHT = InFlight(evaluations=frozenset({(3, "t1")}))


def shown_mid_call(progress: Progress, decoded: int | None = None) -> None:
    """`progress` updated while job 7's one model call is held by the upstream."""
    upstream = Blocking(HELLO, decoded)
    with Gateway(upstream, retry=RetryPolicy(attempts=1, timeout_s=20)) as gw:
        token = gw.issue_token(7)
        state = RunState(running=(RunningJob(7, "evaluate", "node 3 on t1", time.monotonic() - 65),))
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            answer = pool.submit(ask, gw, token)
            assert upstream.entered.wait(20)
            time.sleep(0.3)
            try:
                progress.update(EMPTY_VIEW, FLIGHT, gw, state)
            finally:
                upstream.release.set()
            answer.result(timeout=20)


def test_the_log_line_counts_a_call_in_flight_and_names_each_running_job(caplog):
    with caplog.at_level(logging.INFO, logger="dgm.evolve"):
        shown_mid_call(Progress())
    text = caplog.text
    assert "evaluations 0 |" in text
    assert "| 0 tokens (+" in text
    assert " in flight, 1 call) $0.0000" in text
    assert "running 0 expand, 1 evaluate" in text
    job = next(line for line in text.splitlines() if "job 7 " in line)
    assert "job 7 evaluate node 3 on t1: 1m05s, 0 model calls done, 0 tokens (+" in job
    assert "; a call in flight for 0s (" in job
    assert " prompt tokens)" in job


def test_the_panel_shows_the_running_jobs_and_what_a_call_decoded_so_far(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")
    progress = LiveProgress()
    try:
        progress.note("a note with [bold]markup[/bold] an agent chose")
        shown_mid_call(progress, decoded=42)
    finally:
        progress.close()
    err = capsys.readouterr().err
    assert "| 0 tokens (+" in err
    assert "running now:" in err
    assert "job 7 evaluate node 3 on t1: 1m05s" in err
    assert "42 decoded so far" in err
    assert "in flight, 1 call)" in err
    assert "[bold]markup[/bold]" in err  # shown as written, never taken as rich markup


def test_durations_read_at_a_glance():
    assert [duration(s) for s in (0, 59, 61, 3599, 3600 + 5 * 60 + 7)] == ["0s", "59s", "1m01s", "59m59s", "1h05m"]


def test_a_running_job_is_shown_by_its_kind_node_and_task():
    from archive.records import Job
    from dgm.engine.engine import Running
    from dgm.engine.policies import Evaluate, Expand

    def job(kind: str) -> Job:
        return Job(5, kind, {}, "running", 1, 3, "w", None, 0.0, None, None, None)

    shown = Running(job("evaluate"), Evaluate(3, "t1"), "token", None).shown()
    assert (shown.job_id, shown.kind, shown.what) == (5, "evaluate", "node 3 on t1")
    assert Running(job("expand"), Expand(2, 1), "token", None).shown().what == "node 2"
