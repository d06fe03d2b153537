"""Each limit alone ends a whole run (real archive, bwrap sandboxes, gateway and the
SCRIPTED upstream), in both modes. At a limit no new job starts; the jobs in flight
finish, and nothing else happens after the stop."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from archive import Archive
from dgm.cli import main
from dgm.engine.config import LIMITS, RunConfig
from dgm.engine.engine import Engine
from dgm.engine.progress import Progress
from dgm.executors import for_config
from dgm.gateway import make_upstream
from tests.engine.conftest import evolve_args

pytestmark = pytest.mark.minutes(4)  # see tests/conftest.py

WORKERS = 2
JOB_TOKENS = RunConfig().job_tokens


class AtStop(Progress):
    """Progress that keeps what the run had done and had in flight when it decided to stop."""

    def __init__(self) -> None:
        super().__init__()
        self.at_stop: dict | None = None

    def update(self, view, flight, gw, counters) -> None:
        super().update(view, flight, gw, counters)
        if counters.stop_reason and self.at_stop is None:
            self.at_stop = {
                "evals": view.evaluations(),
                "expansions": len(view.nodes) - 1,
                "flight_evals": len(flight.evaluations),
                "flight_expands": len(flight.expands),
                "tokens": gw.run_usage.tokens,
            }


def run_with(tmp_path, engine_env, bwrap, mode, settings=None, **limit):
    """A run with only `limit` set (the other limits None) and other `settings`; (summary,
    what the run had done and had in flight when it decided to stop)."""
    tasks, script = engine_env
    cfg = RunConfig(
        fm=f"scripted:{script}",
        benchmark=f"taskdir:{tasks}",
        mode=mode,
        workers=WORKERS,
        seed=7,
        **{**dict.fromkeys(LIMITS), **limit},
        **(settings or {}),
    ).validated()
    progress = AtStop()
    run = tmp_path / "run"
    summary = Engine(run, cfg, make_upstream(cfg.fm), bwrap, progress, executor=for_config(cfg)).run()
    with Archive.for_run(run) as ar:
        stored = ar.run_config()
        jobs = ar.jobs.counts()
    assert {k: stored[k] for k in LIMITS} == {**dict.fromkeys(LIMITS), **limit}
    assert jobs["queued"] == jobs["running"] == jobs["failed"] == 0
    assert jobs["done"] == summary["evaluations"] + summary["expansions"]  # every job recorded, none lost
    return summary, progress.at_stop


def after_stop(summary, at_stop, run):
    """What the run did after deciding to stop: exactly the jobs then in flight, each
    spending at most what one job of the run spent."""
    in_flight = at_stop["flight_evals"] + at_stop["flight_expands"]
    assert summary["evaluations"] == at_stop["evals"] + at_stop["flight_evals"]
    assert summary["expansions"] == at_stop["expansions"] + at_stop["flight_expands"]
    per_job: dict[int, int] = {}
    with Archive.for_run(run) as ar:
        for call in ar.fm_calls():
            per_job[call.job_id] = per_job.get(call.job_id, 0) + call.prompt_tokens + call.completion_tokens
    assert summary["tokens"] == sum(per_job.values())
    assert summary["tokens"] - at_stop["tokens"] <= sum(sorted(per_job.values())[::-1][:in_flight])
    return in_flight


@pytest.mark.parametrize("mode", ["hgm", "dgm"])
def test_max_evals_alone(bwrap, engine_env, tmp_path, mode):
    summary, at_stop = run_with(tmp_path, engine_env, bwrap, mode, max_evals=8)
    assert summary["stop_reason"] == "--max-evals 8 reached"
    assert summary["evaluations"] == 8
    assert at_stop["evals"] == 8
    # the last evaluation freed its worker; only expansions started before can still run
    assert at_stop["flight_evals"] == 0
    assert after_stop(summary, at_stop, tmp_path / "run") <= WORKERS - 1
    if mode == "hgm":  # the k-th expansion needs (k - 1) <= evaluations ** 0.6, and 8 ** 0.6 < 4
        assert 1 <= summary["expansions"] <= 4
    else:  # the seed on its 3 tasks, generation 1's 4 children, and 5 of their 12 evaluations
        assert summary["expansions"] == 4
    assert 0 < summary["tokens"] <= (summary["evaluations"] + summary["expansions"]) * JOB_TOKENS


@pytest.mark.parametrize("mode", ["hgm", "dgm"])
def test_max_expansions_alone(bwrap, engine_env, tmp_path, mode):
    summary, at_stop = run_with(tmp_path, engine_env, bwrap, mode, max_expansions=3)
    assert summary["stop_reason"] == "--max-expansions 3 reached and nothing left to evaluate"
    assert at_stop is None  # no limit cut the run short: it ran out of work
    assert summary["expansions"] == 3
    assert summary["valid"] == 4
    assert summary["evaluations"] == 4 * 3  # every agent on each of the 3 tasks (dgm's stages cover all 3)
    assert 0 < summary["tokens"] <= 15 * JOB_TOKENS


@pytest.mark.parametrize("mode", ["hgm", "dgm"])
def test_max_hours_alone(bwrap, engine_env, tmp_path, mode):
    summary, at_stop = run_with(tmp_path, engine_env, bwrap, mode, max_hours=0.0003)
    assert summary["stop_reason"] == "--max-hours 0.0003 reached"
    assert after_stop(summary, at_stop, tmp_path / "run") <= WORKERS


@pytest.mark.parametrize("mode", ["hgm", "dgm"])
def test_budget_usd_alone(bwrap, engine_env, tmp_path, mode):
    """Dollars through the price table (the scripted test double, free by default, is given
    $10 per million tokens with --price's config key). The gateway holds every call's
    prompt and completion cap against the budget, so the run never spends past it, and it
    stops once what is left pays for nothing the agents ask (refused to three jobs in a row)."""
    settings = {"prices": {"scripted-engine-test": (10.0, 10.0)}, "max_call_tokens": 500}
    summary, at_stop = run_with(tmp_path, engine_env, bwrap, mode, settings, budget_usd=0.05)
    assert summary["stop_reason"].startswith("--budget-usd 0.05 spent")
    assert after_stop(summary, at_stop, tmp_path / "run") <= WORKERS
    assert summary["usd"] == pytest.approx(summary["tokens"] * 10 / 1e6, abs=1e-4)
    assert 0 < summary["usd"] <= 0.05  # never past it
    with Archive.for_run(tmp_path / "run") as ar:  # stopped because what is left was refused, job after job
        assert {e.data["scope"] for e in ar.events("budget_exhausted")} == {"run"}


def test_the_command_with_only_max_evals(bwrap, engine_env, tmp_path):
    """The issue's command: `dgm evolve ... --max-evals N` and no other limit."""
    tasks, script = engine_env
    run = tmp_path / "run"
    args = evolve_args(run, tasks, f"scripted:{script}", "--backend", "bwrap", "--max-evals", "5")
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "stopped      --max-evals 5 reached" in result.output
    with Archive.for_run(run) as ar:
        assert {k: ar.run_config()[k] for k in LIMITS} == {**dict.fromkeys(LIMITS), "max_evals": 5}
        assert len(ar.evaluations()) == 5
        assert len(ar.nodes()) - 1 <= 3
