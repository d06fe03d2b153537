"""Where the model decodes on this machine, a new run's first evaluation runs alone, so the
first score is not slowed by a second job sharing the model's cores; then as many jobs run
at once as the model has decoding threads, up to the run's workers."""

from __future__ import annotations

from archive import Archive
from dgm.gateway.scripted import ScriptedUpstream

from .conftest import evolve_ok


def spans(run) -> list[tuple[str, float, float]]:
    with Archive.for_run(run) as ar:
        rows = ar.db.execute("SELECT kind, started_at, finished_at FROM jobs WHERE state = 'done' ORDER BY id")
        return [tuple(row) for row in rows.fetchall()]


def overlapping(jobs) -> bool:
    return any(a[1] < b[2] and b[1] < a[2] for i, a in enumerate(jobs) for b in jobs[i + 1 :])


def test_the_first_evaluation_runs_alone_when_the_model_computes_here(engine_env, tmp_path, monkeypatch, bwrap):
    tasks, script = engine_env
    monkeypatch.setattr(ScriptedUpstream, "computes_here", True, raising=False)
    run = tmp_path / "run"
    evolve_ok(run, tasks, script, "--workers", "2", "--max-evals", "4", "--backend", "bwrap")
    jobs = spans(run)
    first = jobs[0]
    assert first[0] == "evaluate"
    assert all(other[1] >= first[2] for other in jobs[1:]), jobs  # nothing started before it ended
    assert overlapping(jobs[1:]), jobs  # after it, two at once


def test_a_model_decoding_on_one_thread_gets_one_job_at_a_time(engine_env, tmp_path, monkeypatch, bwrap):
    tasks, script = engine_env
    monkeypatch.setattr(ScriptedUpstream, "computes_here", True, raising=False)
    monkeypatch.setattr(ScriptedUpstream, "threads", 1, raising=False)
    run = tmp_path / "run"
    evolve_ok(run, tasks, script, "--workers", "2", "--max-evals", "4", "--backend", "bwrap")
    jobs = spans(run)
    assert len(jobs) >= 4, jobs
    assert not overlapping(jobs), jobs


def test_an_upstream_elsewhere_gets_every_worker_from_the_start(engine_env, tmp_path, bwrap):
    tasks, script = engine_env
    run = tmp_path / "run"
    evolve_ok(run, tasks, script, "--workers", "2", "--max-evals", "4", "--backend", "bwrap")
    jobs = spans(run)
    assert overlapping(jobs[:2]), jobs
