"""The simulator drives the engine's own scheduler, policies, selectors, view cache and
final rules (no parallel re-implementation), and a fixed seed reproduces its result."""

from __future__ import annotations

import json
import random
import statistics

import pytest
from click.testing import CliRunner

from dgm.cli import main
from dgm.engine import final, policies, scheduler, selectors, view
from dgm.simulate import oracle, run
from dgm.simulate.compare import compare, gap_closed
from dgm.simulate.landscape import Landscape, World


def test_the_simulator_uses_the_engines_classes(monkeypatch):
    assert run.Scheduler is scheduler.Scheduler
    assert run.make_policy is scheduler.make_policy
    assert run.ViewCache is view.ViewCache
    assert run.final is final
    assert run.make_selector is selectors.make_selector
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
    assert calls["next"] >= 200
    assert calls["select"] == result.agents - 1


def test_same_seed_same_result_and_different_seeds_differ():
    a = compare(Landscape(), ["score_child_prop", "cmp_thompson"], budget=150, seeds=3, workers=1)
    b = compare(Landscape(), ["score_child_prop", "cmp_thompson"], budget=150, seeds=3, workers=2)
    assert a.to_json() == b.to_json()
    assert a.curves == b.curves
    one = run.simulate(Landscape(), "random", seed=1, budget=150)
    two = run.simulate(Landscape(), "random", seed=2, budget=150)
    assert one != two


def test_a_run_takes_a_selector_built_from_its_world_and_keeps_its_end_state():
    by_name = run.simulate(Landscape(), "lineage", seed=3, budget=150)
    worlds = []

    def build(world: World) -> selectors.Selector:
        worlds.append(world)
        return selectors.make_selector("lineage")

    one = run.Run(Landscape(), build, seed=3)
    assert one.run(150) == by_name
    assert worlds == [one.world]
    assert one.cache.evaluations == by_name.evaluations
    assert len(one.cache.nodes) == by_name.agents
    assert set(one.world.agents) == set(one.cache.nodes)
    assert one.skill_of_pick() == by_name.final_skill


def test_the_oracle_expands_the_best_by_its_value():
    world = World(Landscape(corr=-0.8), seed=0)
    world.seed(1)
    for child in range(2, 12):
        world.expand(1, child)
    eligible = list(world.agents)
    default = oracle.OracleSelector(world).select(None, eligible, 1, random.Random(0))
    assert default == [max(eligible, key=lambda i: world.agents[i].skill + world.m(i))]
    worst = oracle.OracleSelector(world, value=lambda i: -world.agents[i].skill).select(
        None, eligible, 2, random.Random(0)
    )
    assert worst == [min(eligible, key=lambda i: world.agents[i].skill)] * 2
    assert worst[0] != default[0]


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
    assert data["landscape"]["corr"] == 0.5
    assert [r["selector"] for r in data["results"]] == ["random", "oracle"]
    for r in data["results"]:
        assert set(r) >= {
            "selector",
            "final_skill_mean",
            "final_skill_ci",
            "best_in_archive_mean",
            "budget_to_target_median",
            "gap_closed",
            "gap_closed_ci",
        }
        assert r["final_skill_ci"][0] <= r["final_skill_mean"] <= r["final_skill_ci"][1]
    assert data["results"][1]["final_skill_mean"] > data["results"][0]["final_skill_mean"]
    assert [r["gap_closed"] for r in data["results"]] == [0.0, 1.0]


def test_gap_closed_and_its_interval():
    random_, oracle = [0.1, 0.2, 0.3, 0.2], [0.9, 0.8, 1.0, 0.9]
    point, lo, hi = gap_closed([0.5, 0.5, 0.6, 0.6], random_, oracle)
    assert point == pytest.approx((0.55 - 0.2) / (0.9 - 0.2))
    assert lo <= point <= hi < 1
    assert gap_closed([0.3] * 4, [0.3] * 4, [0.3] * 4) is None  # no gap to close


def test_simulate_cli_judge_first_shows_the_gated():
    args = ["simulate", "--compare", "cmp_thompson", "--budget", "150", "--seeds", "2", "--workers", "1"]
    result = CliRunner().invoke(main, [*args, "--judge-first", "0.3"])
    assert result.exit_code == 0, result.output
    assert "judge-first 0.3" in result.output
    assert "gated" in result.output
    data = json.loads(CliRunner().invoke(main, [*args, "--judge-first", "0.3", "--json"]).output)
    assert data["judge_first"] == 0.3
    assert data["results"][0]["judged_mean"] > 0
    assert data["results"][0]["gap_closed"] is None  # no random and oracle to measure against


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--landscape", "nope=1"], "expected KEY=VALUE"),
        (["--landscape", "corr=2"], "corr must be in"),
        (["--landscape", "judge_noise=-1"], "judge_noise and judge_cost must be"),
        (["--judge-first", "1.5"], "1.5 is not in the range"),
        (["--compare", "genius"], "unknown selector"),
    ],
)
def test_bad_simulate_options(args, message):
    result = CliRunner().invoke(main, ["simulate", "--budget", "10", "--seeds", "1", *args])
    assert result.exit_code != 0
    assert message in result.output


def test_final_pick_agrees_with_the_final_rule_after_every_step():
    """The simulator's incremental pick is final.best over the whole view, at every step,
    through gates (status changes) and every rule."""
    for rule in final.RULES:
        world = World(Landscape(invalid=0.3), seed=3)
        cache = view.ViewCache(world.tasks)
        pick = final.FinalPick(rule)
        world.seed(1)
        cache.add_node(1, None, "valid", 0)
        rng = random.Random(rule)
        for step in range(400):
            if step % 7 == 0:
                child, parent = len(cache.nodes) + 1, rng.choice(list(cache.nodes))
                cache.add_node(child, parent, "valid" if world.expand(parent, child) else "invalid", 1)
                continue
            node = rng.choice([i for i, n in cache.nodes.items() if n.status == "valid"])
            cache.add_result(node, rng.choice(world.tasks), world.evaluate(node, rng.choice(world.tasks)))
            if node != 1 and rng.random() < 0.05:
                cache.set_status(node, "invalid")
            pick.update(cache.nodes[node])
            assert pick.best == final.best(cache.view(), rule), (rule, step)


def test_the_judge_follows_its_parameters():
    calibrated = World(Landscape(judge_corr=1.0, judge_noise=0.0), seed=0)
    calibrated.seed(1)
    assert calibrated.judge(1, "t003") == pytest.approx(calibrated.agents[1].solve[3])
    for corr, expect in ((0.9, 0.5), (0.0, 0.0)):  # its scores track the agents' chances, or nothing
        world = World(Landscape(judge_corr=corr, judge_noise=0.5), seed=1)
        for i in range(300):
            world.agents[i] = world._agent(0.05 + 0.9 * i / 300, 0.0)
        chances = [world.agents[i].solve[0] for i in range(300)]
        scores = [world.judge(i, "t000") for i in range(300)]
        r = statistics.correlation(chances, scores)
        assert (r > expect) if expect else abs(r) < 0.15, (corr, r)


def test_judge_first_gates_new_agents_and_never_the_seed():
    off = run.simulate(Landscape(), "cmp_thompson", seed=4, budget=300)
    assert off.judged == off.gated == 0
    # a calibrated judge scores a patch by its chance (< 0.9 for every agent here): a gate of
    # 0.9 stops every new agent at its first patch, so the final pick stays the seed
    land = Landscape(judge_corr=1.0, judge_noise=0.0, step_sd=0.01)
    harsh = run.simulate(land, "cmp_thompson", seed=4, budget=300, settings=run.Settings(judge_first=0.9))
    seed_world = World(land, 4)
    seed_world.seed(1)
    assert harsh.gated == harsh.judged > 5
    assert harsh.final_skill == seed_world.agents[1].skill
    assert {skill for _, skill in harsh.curve} == {seed_world.agents[1].skill}
    # no gate at all: everything judged passes, and the run spends judge_cost more per new agent
    lenient = run.simulate(land, "cmp_thompson", seed=4, budget=300, settings=run.Settings(judge_first=0.0))
    assert lenient.gated == 0
    assert lenient.judged > 5
