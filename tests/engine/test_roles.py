"""Models per role: the task agent, the meta agent and its diagnosis each reach the model the
run gives their role (--model-solve, --model-improve, --model-diagnose), pinned by the
gateway to each job's token; every call records its role, and status gives spend per role."""

from __future__ import annotations

import json

from click.testing import CliRunner

from archive import Archive
from dgm.cli import main
from tests.engine.conftest import evolve_ok

ROLE_FLAGS = ("--model-solve", "solver-m", "--model-improve", "improver-m", "--model-diagnose", "diagnoser-m")


def test_each_role_reaches_its_own_model_and_status_gives_spend_per_role(engine_env, tmp_path, bwrap):
    tasks, script = engine_env
    run = tmp_path / "run"
    evolve_ok(run, tasks, script, *ROLE_FLAGS, "--max-expansions", "1", "--max-evals", "4", "--workers", "1")
    with Archive.for_run(run) as ar:
        kinds = {job.id: job.kind for job in ar.jobs.list()}
        seen = {(kinds[c.job_id], c.role, c.model) for c in ar.fm_calls()}
        stored = ar.run_config()
    assert seen == {
        ("evaluate", "solve", "solver-m"),
        ("expand", "improve", "improver-m"),
        ("expand", "diagnose", "diagnoser-m"),
    }
    assert stored["models"] == {"solve": "solver-m", "improve": "improver-m", "diagnose": "diagnoser-m"}
    status = json.loads(CliRunner().invoke(main, ["status", "--run", str(run), "--json"]).output)
    roles = {r["role"]: r for r in status["spend_by_role"]}
    assert {r: roles[r]["models"] for r in roles} == {
        "solve": ["solver-m"],
        "improve": ["improver-m"],
        "diagnose": ["diagnoser-m"],
    }
    assert roles["diagnose"]["calls"] == 1
    assert roles["solve"]["tokens"] > 0
    text = CliRunner().invoke(main, ["status", "--run", str(run)]).output
    assert "roles        " in text
    assert "diagnose (diagnoser-m): 1 calls" in text


def test_without_role_models_every_role_uses_the_runs_model(engine_env, tmp_path, bwrap):
    tasks, script = engine_env
    run = tmp_path / "run"
    evolve_ok(run, tasks, script, "--model", "one-m", "--max-expansions", "1", "--max-evals", "4", "--workers", "1")
    with Archive.for_run(run) as ar:
        assert {c.model for c in ar.fm_calls()} == {"one-m"}
        assert {c.role for c in ar.fm_calls()} == {"solve", "improve", "diagnose"}
