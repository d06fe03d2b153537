"""The Python API a notebook uses (dgm.evolution): the same run `dgm evolve` makes."""

from __future__ import annotations

import signal

import pytest

from dgm.evolution import ERRORS, Evolution
from sandbox import SandboxError


def options(tasks, script, **extra):
    return {"fm": f"scripted:{script}", "benchmark": f"taskdir:{tasks}", "backend": "bwrap", **extra}


def test_a_run_from_python_stops_at_its_limit_and_resumes(bwrap, engine_env, tmp_path):
    tasks, script = engine_env
    run = tmp_path / "run"
    first = Evolution.prepare(run, options(tasks, script, max_evals=2, max_expansions=0, seed=3))
    assert not first.resumed
    assert first.config.max_evals == 2
    summary = first.run()
    assert summary["evaluations"] == 2
    assert summary["stop_reason"] == "--max-evals 2 reached"
    again = Evolution.prepare(run, {"max_evals": 3})  # resumed: the stored choices hold, the limit moves
    assert again.resumed
    assert again.config.seed == 3
    assert again.config.max_evals == 3
    assert again.run()["evaluations"] == 3


def test_stop_on_signals_installs_and_restores_handlers(bwrap, engine_env, tmp_path):
    tasks, script = engine_env
    evolution = Evolution.prepare(tmp_path / "run", options(tasks, script, max_evals=1))
    before = signal.getsignal(signal.SIGTERM)
    with evolution.stop_on_signals():
        assert signal.getsignal(signal.SIGTERM) is not before
        signal.raise_signal(signal.SIGTERM)
        assert evolution.stopped_on_request
        assert not evolution.engine.force_stop
        signal.raise_signal(signal.SIGTERM)
        assert evolution.engine.force_stop
    assert signal.getsignal(signal.SIGTERM) is before


def test_what_cannot_run_is_one_of_the_api_errors(engine_env, tmp_path):
    tasks, script = engine_env
    with pytest.raises(ERRORS, match="stages") as err:
        Evolution.prepare(tmp_path / "run", options(tasks, script, stages="10,x"))
    assert err.type.__name__ == "ConfigError"
    with pytest.raises(SandboxError, match="unknown sandbox backend 'podman'"):
        Evolution.prepare(tmp_path / "run", options(tasks, script, backend="podman"))
