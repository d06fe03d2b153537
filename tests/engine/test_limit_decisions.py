"""The stop decision on its own: any one limit ends the run, in both modes, and the default
configuration ends by itself. Runs play the scheduler's decisions out at once (every job
finishes as soon as it is asked for), so a run that would never end shows as one that
hits the step cap."""

from __future__ import annotations

import dataclasses
import random

import pytest

from dgm.engine.config import LIMITS, ConfigError, RunConfig, resolve
from dgm.engine.policies import Evaluate, Expand, InFlight
from dgm.engine.scheduler import Scheduler
from dgm.engine.view import ViewCache

TASKS = tuple(f"t{i}" for i in range(5))
STEP_CAP = 5000


def play(scheduler: Scheduler) -> tuple[ViewCache, int]:
    """Run the scheduler's decisions until it has nothing more to do; (cache, decisions)."""
    cache, results = ViewCache(TASKS), random.Random(3)
    cache.add_node(1, None, "valid", 0)
    for decision in range(STEP_CAP):
        view = cache.view()
        if scheduler.limit_reached(view):
            return cache, decision
        action = scheduler.ask(view, InFlight(), decision)
        if action is None:
            return cache, decision
        if isinstance(action, Expand):
            cache.add_node(len(cache.nodes) + 1, action.parent, "valid", action.generation)
        else:
            assert isinstance(action, Evaluate)
            cache.add_result(action.node, action.task, results.random() < 0.3)
    pytest.fail(f"no end after {STEP_CAP} decisions")


def config(mode: str, **limits) -> RunConfig:
    return RunConfig(mode=mode, **{**dict.fromkeys(LIMITS), **limits}).validated()


@pytest.mark.parametrize("mode", ["hgm", "dgm"])
def test_max_evals_alone_stops_new_work(mode):
    scheduler = Scheduler.for_config(config(mode, max_evals=24))
    cache, _ = play(scheduler)
    view = cache.view()
    assert view.evaluations() == 24
    assert scheduler.limit_reached(view) == "--max-evals 24 reached"
    assert scheduler.idle_reason(view) == "--max-evals 24 reached"
    assert scheduler.ask(view, InFlight(), 10**6) is None  # no expansion past the limit either


@pytest.mark.parametrize("mode", ["hgm", "dgm"])
def test_max_expansions_alone_ends_once_nothing_is_left_to_evaluate(mode):
    scheduler = Scheduler.for_config(config(mode, max_expansions=3))
    cache, _ = play(scheduler)
    view = cache.view()
    assert len(view.nodes) - 1 == 3
    assert scheduler.limit_reached(view) is None
    assert scheduler.idle_reason(view) == "--max-expansions 3 reached and nothing left to evaluate"
    if mode == "hgm":  # hgm evaluates every agent on every task
        assert view.evaluations() == 4 * len(TASKS)


def test_no_expansion_while_the_last_evaluations_run():
    """With every remaining evaluation in flight, a new child could never be evaluated."""
    scheduler = Scheduler.for_config(config("hgm", max_evals=6))
    cache = ViewCache(TASKS)
    cache.add_node(1, None, "valid", 0)
    for task in TASKS:
        cache.add_result(1, task, False)
    flight = InFlight(evaluations=frozenset({(1, "x")}))
    allow = scheduler.allowance(cache.view(), flight)
    assert not allow.evaluate
    assert not allow.expand
    assert scheduler.ask(cache.view(), flight, 0) is None
    assert scheduler.limit_reached(cache.view()) is None  # reached once that evaluation is done


@pytest.mark.parametrize("mode", ["hgm", "dgm"])
def test_the_default_configuration_ends_at_its_evaluation_limit(mode):
    """`make evolve` passes no limit: the defaults alone end the run."""
    defaults = dataclasses.replace(resolve({}, {}), mode=mode)
    assert defaults.max_evals == 200
    assert (defaults.max_expansions, defaults.budget_usd, defaults.max_hours) == (None, None, None)
    scheduler = Scheduler.for_config(defaults)
    cache, _ = play(scheduler)
    assert cache.view().evaluations() == 200
    assert scheduler.limit_reached(cache.view()) == "--max-evals 200 reached"


def test_a_run_without_any_limit_is_refused():
    with pytest.raises(ConfigError, match="at least one of max_evals, max_expansions, budget_usd, max_hours"):
        RunConfig(max_evals=None).validated()
    for limit, value in (("max_expansions", 3), ("budget_usd", 1.0), ("max_hours", 0.5)):
        assert getattr(config("hgm", **{limit: value}), limit) == value
