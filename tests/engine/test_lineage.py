"""The lineage selector: its estimates (incremental equals rebuilt), what they reward, and
the plan it gives hgm (when to expand, what to evaluate)."""

from __future__ import annotations

import random

import numpy as np

from dgm.engine.lineage import LineageModel, Plan
from dgm.engine.policies import Allowance, DGMPolicy, Evaluate, Expand, GEAPolicy, HGMPolicy, InFlight
from dgm.engine.selectors import LineageSelector, make_selector
from dgm.engine.view import ViewCache
from dgm.simulate.landscape import Landscape, World

TASKS = tuple(f"t{i}" for i in range(10))


def cache_with(spec: dict[int, tuple[int | None, int, int]]) -> ViewCache:
    """spec: id -> (parent, resolved, failed) on the first tasks in order."""
    cache = ViewCache(TASKS)
    for i, (parent, s, f) in spec.items():
        cache.add_node(i, parent, "valid", 0)
        for j in range(s + f):
            cache.add_result(i, TASKS[j], j < s)
    return cache


def estimates(model: LineageModel, ids) -> np.ndarray:
    rows = model.rows(list(ids))
    return np.stack([model.mean_next[rows], model.sd_next[rows], model.mean_p[rows], model.sd_p[rows]])


def test_incremental_estimates_equal_a_rebuild_at_every_step():
    """The model refilters only what changed; a fresh model on the same view (a resumed
    run) must agree to the last bit, or a resume would not reproduce the run."""
    world = World(Landscape(invalid=0.3), seed=5)
    world.seed(1)
    cache = ViewCache(world.tasks)
    cache.add_node(1, None, "valid", 0)
    model, rng = LineageModel(), random.Random(2)
    for step in range(300):
        if step % 5 == 0:
            child, parent = len(cache.nodes) + 1, rng.choice([i for i, n in cache.nodes.items() if n.status == "valid"])
            cache.add_node(child, parent, "valid" if world.expand(parent, child) else "invalid", 1)
        else:
            node = rng.choice([i for i, n in cache.nodes.items() if n.status == "valid"])
            open_tasks = [t for t in world.tasks if t not in cache.nodes[node].evaluated]
            if open_tasks:
                cache.add_result(node, open_tasks[0], world.evaluate(node, open_tasks[0]))
        model.update(cache.view())
        if step % 25 == 0 or step == 299:
            fresh = LineageModel()
            fresh.update(cache.view())
            assert np.array_equal(estimates(model, cache.nodes), estimates(fresh, cache.nodes)), step


def test_estimates_reward_skill_and_children_that_improved():
    cache = cache_with(
        {
            1: (None, 3, 7),
            2: (1, 6, 4),  # better than its parent
            3: (1, 2, 8),  # worse
            4: (1, 4, 6),  # 4 and 5: the same own results; 4's child improved, 5's fell back
            5: (1, 4, 6),
            6: (4, 8, 2),
            7: (5, 1, 9),
        }
    )
    model = LineageModel()
    model.update(cache.view())
    mean_next, sd_next, mean_p, _ = estimates(model, range(1, 8))
    assert mean_next[1] > mean_next[0] > mean_next[2]  # skill: 2 over the seed over 3
    assert mean_next[3] > mean_next[4]
    assert mean_p[3] > mean_p[4]
    assert sd_next[1] > 0
    assert mean_next[5] > mean_next[6]
    # a new, unevaluated child starts from its parent's estimate and is less certain
    cache.add_node(8, 2, "valid", 0)
    model.update(cache.view())
    (_next8,), (sd8,), (p8,), _ = estimates(model, [8])
    (next2,), (sd2,), _, _ = estimates(model, [2])
    assert sd8 > sd2
    assert abs(p8 - next2) < 0.05


def test_the_plan_expands_early_and_then_evaluates_the_least_certain_racer():
    selector = LineageSelector()
    young = cache_with({1: (None, 3, 7)})
    assert selector.plan(young.view(), InFlight(), random.Random(0)) == Plan(expand=1)
    # one clear best parent and room for nodes (4 nodes, 10 + 23 evaluations): expand it
    clear = cache_with({1: (None, 3, 7), 2: (1, 9, 1), 3: (1, 1, 1), 4: (1, 1, 1)})
    assert {selector.plan(clear.view(), InFlight(), random.Random(s)).expand for s in range(10)} == {2}
    # more nodes than evals ** 0.85 allows (21 nodes on 10 + 20 evaluations): evaluate, and
    # among the racers the least certain: the ones seen once, not the seed seen ten times
    crowded = cache_with({1: (None, 3, 7), **{i: (1, 1, 0) for i in range(2, 22)}})
    plans = [selector.plan(crowded.view(), InFlight(), random.Random(s)) for s in range(10)]
    assert all(p.expand is None and p.evaluate in range(2, 22) for p in plans), plans
    # nothing to evaluate where every task is done, and too many expansions in flight
    full = cache_with({1: (None, 3, 7), 2: (1, 5, 5)})
    flight = InFlight(expands=tuple(Expand(1) for _ in range(20)))
    assert selector.plan(full.view(), flight, random.Random(0)) == Plan()  # the policy decides


def test_same_seed_same_plan():
    cache = cache_with({1: (None, 3, 7), 2: (1, 5, 1), 3: (1, 2, 2), 4: (2, 1, 0)})
    a = [LineageSelector().plan(cache.view(), InFlight(), random.Random(s)) for s in range(10)]
    b = [LineageSelector().plan(cache.view(), InFlight(), random.Random(s)) for s in range(10)]
    assert a == b


def test_hgm_follows_the_plan_within_its_budgets():
    cache = cache_with({1: (None, 3, 7), 2: (1, 1, 0)})
    policy = HGMPolicy(selector=LineageSelector())
    action = policy.next(cache.view(), InFlight(), Allowance(), random.Random(0))
    assert isinstance(action, Expand)  # 2 nodes on 11 evaluations: below 11 ** 0.45
    no_more_children = policy.next(cache.view(), InFlight(), Allowance(expand=False), random.Random(0))
    assert isinstance(no_more_children, Evaluate)
    assert no_more_children.node == 2


def test_gea_follows_the_plan_and_keeps_its_groups():
    """gea asks the planner too, and an expansion it plans still comes with the parent's
    group. Here n ** 0.6 would evaluate (7 agents on 14 evaluations; 14 ** 0.6 = 4.9 < 6);
    the plan expands the clear best parent (6 <= 14 ** 0.85 = 9.4)."""
    cache = cache_with({1: (None, 3, 7), 2: (1, 3, 1), **{i: (1, 0, 0) for i in range(3, 8)}})
    for mode_policy in (HGMPolicy(selector=LineageSelector()), GEAPolicy(selector=LineageSelector(), group_size=2)):
        for seed in range(5):
            action = mode_policy.next(cache.view(), InFlight(), Allowance(), random.Random(seed))
            assert isinstance(action, Expand), (mode_policy.name, action)
            assert action.parent == 2, (mode_policy.name, action)
            assert len(action.group) == (2 if mode_policy.name == "gea" else 0)
    assert isinstance(HGMPolicy().next(cache.view(), InFlight(), Allowance(), random.Random(0)), Evaluate)


def generations(seed: tuple[int, int], children: dict[int, tuple[int, int]]) -> ViewCache:
    """A seed (generation 0) and one generation of its children: id -> (resolved, failed)."""
    cache = ViewCache(TASKS)
    for i, (generation, (s, f)) in enumerate([(0, seed), *((1, c) for c in children.values())], start=1):
        cache.add_node(i, None if i == 1 else 1, "valid", generation)
        for j in range(s + f):
            cache.add_result(i, TASKS[j], j < s)
    return cache


def test_dgm_keeps_its_generations_and_first_stage_and_the_plan_decides_the_rest():
    """Under dgm the planner replaces the later stages: thirty children that each failed
    their one-task first stage would end the generation under dgm's threshold, but they
    crowd the plan (31 agents on 40 evaluations, more than 40 ** 0.85), which evaluates the
    least certain racer further. A generation still gets its children made, and every new
    child its first stage, before the plan is asked."""
    failed_first_stage = {i: (0, 1) for i in range(2, 32)}
    crowded = generations((3, 7), failed_first_stage)
    staged = DGMPolicy(children=30, stages=(1, 5), selector=make_selector("score_child_prop"))
    action = staged.next(crowded.view(), InFlight(), Allowance(), random.Random(0))
    assert isinstance(action, Expand)
    assert action.generation == 2
    for seed in range(5):
        planned = DGMPolicy(children=30, stages=(1, 5), selector=LineageSelector())
        action = planned.next(crowded.view(), InFlight(), Allowance(), random.Random(seed))
        plan = LineageSelector().plan(crowded.view(), InFlight(), random.Random(seed))
        assert action == Evaluate(plan.evaluate, TASKS[1]), (action, plan)
        assert action.node in failed_first_stage, (action, plan)
    planned = DGMPolicy(children=30, stages=(1, 5), selector=LineageSelector())
    unscreened = generations((3, 7), {**failed_first_stage, 31: (0, 0)})
    assert planned.next(unscreened.view(), InFlight(), Allowance(), random.Random(0)) == Evaluate(31, TASKS[0])
    short = generations((3, 7), {i: (0, 1) for i in range(2, 12)})  # 10 of the generation's 30 children
    action = planned.next(short.view(), InFlight(), Allowance(), random.Random(0))
    assert isinstance(action, Expand)
    assert action.generation == 1
    # a second worker is not held back by the plan's evaluation in flight on a member
    busy = InFlight(evaluations=frozenset({(2, TASKS[1])}))
    assert isinstance(planned.next(crowded.view(), busy, Allowance(), random.Random(0)), Evaluate)
    # no expansions left: the plan's evaluations go on, and none is wasted on waiting
    no_more = planned.next(crowded.view(), InFlight(), Allowance(expand=False), random.Random(0))
    assert isinstance(no_more, Evaluate)
    assert no_more.node in failed_first_stage
