"""The simulator drives the engine's own scheduler, policies, selectors, view cache and
final rules (no parallel re-implementation), and a fixed seed reproduces its result."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from dgm.cli import main
from dgm.engine import final, policies, scheduler, selectors, view
from dgm.simulate import run
from dgm.simulate.compare import compare
from dgm.simulate.landscape import Landscape, World


def test_the_simulator_uses_the_engines_classes(monkeypatch):
    assert run.Scheduler is scheduler.Scheduler and run.make_policy is scheduler.make_policy
    assert run.ViewCache is view.ViewCache and run.final is final and run.make_selector is selectors.make_selector
    calls = {"next": 0, "select": 0}
    real_next, real_select = policies.HGMPolicy.next, selectors.CmpThompsonSelector.select

    def counting_next(self, *args, **kw):
        calls["next"] += 1
        return real_next(self, *args, **kw)

    def counting_select(self, *args, **kw):
        calls["select"] += 1
        return real_select(self, *args, **kw)

    monkeypatch.setattr(policies.HGMPolicy, "next", counting_next)
    monkeypatch.setattr(selectors.CmpThompsonSelector, "select", counting_select)
    result = run.simulate(Landscape(), "cmp_thompson", seed=1, budget=200)
    assert calls["next"] >= 200 and calls["select"] == result.agents - 1


def test_same_seed_same_result_and_different_seeds_differ():
    a = compare(Landscape(), ["score_child_prop", "cmp_thompson"], budget=150, seeds=3, workers=1)
    b = compare(Landscape(), ["score_child_prop", "cmp_thompson"], budget=150, seeds=3, workers=2)
    assert a.to_json() == b.to_json() and a.curves == b.curves
    one = run.simulate(Landscape(), "random", seed=1, budget=150)
    two = run.simulate(Landscape(), "random", seed=2, budget=150)
    assert one != two


def test_landscape_behaves_as_documented():
    world = World(Landscape(corr=-1.0, m_sd=0.05, m0=0.0), seed=0)
    world.seed(1)
    world.agents[2] = world._agent(0.6, 0.0)
    world.agents[3] = world._agent(0.1, 0.0)
    assert world.m(2) < 0 < world.m(3)  # mismatch: the better agent is the worse improver
    world.seed(4)
    hits = sum(world.evaluate(4, "t000") for _ in range(2000)) / 2000
    assert hits == pytest.approx(world.agents[4].solve[0], abs=0.04)


def test_oracle_beats_random_and_cli_json_shape():
    result = CliRunner().invoke(
        main,
        [
            "simulate",
            "--compare",
            "random,oracle",
            "--budget",
            "200",
            "--seeds",
            "4",
            "--landscape",
            "corr=0.5",
            "--json",
            "--workers",
            "1",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["landscape"]["corr"] == 0.5 and [r["selector"] for r in data["results"]] == ["random", "oracle"]
    for r in data["results"]:
        assert set(r) >= {
            "selector",
            "final_skill_mean",
            "final_skill_ci",
            "best_in_archive_mean",
            "budget_to_target_median",
        }
        assert r["final_skill_ci"][0] <= r["final_skill_mean"] <= r["final_skill_ci"][1]
    assert data["results"][1]["final_skill_mean"] > data["results"][0]["final_skill_mean"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--landscape", "nope=1"], "expected KEY=VALUE"),
        (["--landscape", "corr=2"], "corr must be in"),
        (["--compare", "genius"], "unknown selector"),
    ],
)
def test_bad_simulate_options(args, message):
    result = CliRunner().invoke(main, ["simulate", "--budget", "10", "--seeds", "1", *args])
    assert result.exit_code != 0 and message in result.output
