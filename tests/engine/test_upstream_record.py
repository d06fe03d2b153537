"""What decides the model's speed (the embedded model's threads, context, ...) is recorded in
the run's archive when a session of the run starts and when it stops."""

from __future__ import annotations

from archive import Archive
from dgm.gateway.scripted import ScriptedUpstream

from .conftest import evolve_ok

SETTINGS = {"upstream": "scripted", "threads": 3, "threads_follow_load": True, "thread_changes": []}


def test_the_upstreams_settings_are_recorded_at_start_and_stop(engine_env, tmp_path, monkeypatch, bwrap):
    tasks, script = engine_env
    monkeypatch.setattr(ScriptedUpstream, "settings", lambda self: dict(SETTINGS), raising=False)
    run = tmp_path / "run"
    evolve_ok(run, tasks, script, "--max-evals", "1", "--backend", "bwrap")
    with Archive.for_run(run) as ar:
        started, stopped = ar.events("run_started"), ar.events("run_stopped")
    assert [e.data["upstream"] for e in started] == [SETTINGS]
    assert [e.data["upstream"] for e in stopped] == [SETTINGS]


def test_an_upstream_without_settings_records_none(engine_env, tmp_path, bwrap):
    tasks, script = engine_env
    run = tmp_path / "run"
    evolve_ok(run, tasks, script, "--max-evals", "1", "--backend", "bwrap")
    with Archive.for_run(run) as ar:
        assert [e.data["upstream"] for e in ar.events("run_started")] == [{}]
