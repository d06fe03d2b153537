"""The hgm and dgm policies on hand-made views."""

from __future__ import annotations

import random
from types import MappingProxyType

from dgm.engine.policies import Allowance, DGMPolicy, Evaluate, Expand, HGMPolicy, InFlight
from dgm.engine.view import NodeStats, View

TASKS = tuple(f"t{i}" for i in range(6))


def node(i, parent=None, done=(), resolved=(), status="valid", generation=0, children=0, clade=(0, 0)):
    s = sum(1 for t in done if t in resolved)
    return NodeStats(
        i,
        parent,
        status,
        generation,
        s,
        len(done) - s,
        clade[0] or s,
        clade[1] or len(done) - s,
        children,
        frozenset(done),
    )


def view(*nodes):
    return View(MappingProxyType({n.id: n for n in nodes}), TASKS)


RNG = random.Random(0)


def test_hgm_measures_the_seed_first():
    policy = HGMPolicy()
    assert policy.next(view(node(1)), InFlight(), Allowance(), RNG) == Evaluate(1, "t0")
    busy = InFlight(evaluations=frozenset((1, t) for t in TASKS[:5]))
    assert policy.next(view(node(1, done=())), busy, Allowance(), RNG) == Evaluate(1, "t5")
    all_in_flight = InFlight(evaluations=frozenset((1, t) for t in TASKS))
    assert policy.next(view(node(1)), all_in_flight, Allowance(), RNG) is None  # wait for the baseline


def test_hgm_expand_or_evaluate_rule():
    policy = HGMPolicy(alpha=0.6)
    seed = node(1, done=TASKS, resolved=("t0",), children=1)
    child = node(2, parent=1, done=("t0",))
    # 7 evaluations: 7 ** 0.6 = 3.2 >= nodes - 1 + pending = 1 -> expand
    assert isinstance(policy.next(view(seed, child), InFlight(), Allowance(), RNG), Expand)
    # with three expansions pending, 3.2 < 4 -> evaluate the child, whose tasks are open
    pending = InFlight(expands=(Expand(1), Expand(1), Expand(2)))
    assert policy.next(view(seed, child), pending, Allowance(), RNG) == Evaluate(2, "t1")
    # no expansions allowed: evaluate; nothing left to evaluate and nothing allowed: None
    assert policy.next(view(seed, child), InFlight(), Allowance(expand=False), RNG) == Evaluate(2, "t1")
    done_child = node(2, parent=1, done=TASKS)
    assert policy.next(view(seed, done_child), InFlight(), Allowance(expand=False), RNG) is None


def test_hgm_never_picks_invalid_nodes():
    seed = node(1, done=TASKS, children=2)
    bad = node(2, parent=1, status="invalid")
    for i in range(50):
        action = HGMPolicy().next(view(seed, bad), InFlight(), Allowance(), random.Random(i))
        assert action == Expand(1)


def test_hgm_cooldown_spends_evaluations_on_the_best():
    seed = node(1, done=TASKS, children=2)
    good = node(2, parent=1, done=("t0", "t1"), resolved=("t0", "t1"))
    poor = node(3, parent=1, done=("t0",))
    assert HGMPolicy().next(view(seed, good, poor), InFlight(), Allowance(cooling=True), RNG) == Evaluate(2, "t2")


def test_dgm_staged_evaluation_and_generations():
    policy = DGMPolicy(children=2, stages=(2, 4), threshold=0.5, top_margin=0.1)
    seed = node(1)
    assert policy.next(view(seed), InFlight(), Allowance(), RNG) == Evaluate(1, "t0")
    # the seed failed its first stage: no further evaluation; the first generation starts
    failed_seed = node(1, done=("t0", "t1"))
    first = policy.next(view(failed_seed), InFlight(), Allowance(), RNG)
    assert first == Expand(1, 1)
    assert policy.next(view(failed_seed), InFlight(expands=(first,)), Allowance(), RNG) == Expand(1, 1)
    assert policy.next(view(failed_seed), InFlight(expands=(first, first)), Allowance(), RNG) is None
    # a child that passes stage one goes on to stage two; one that fails stops at two tasks
    good = node(2, parent=1, generation=1, done=("t0", "t1"), resolved=("t0",))
    bad = node(3, parent=1, generation=1, done=("t0", "t1"))
    assert policy.next(view(failed_seed, good, bad), InFlight(), Allowance(), RNG) == Evaluate(2, "t2")
    # at the top after stage two: the full set
    top = node(2, parent=1, generation=1, done=TASKS[:4], resolved=("t0", "t1", "t2"))
    assert policy.next(view(failed_seed, top, bad), InFlight(), Allowance(), RNG) == Evaluate(2, "t4")
    # everything of generation 1 done: generation 2 starts, parents by DGM's rule
    finished = node(2, parent=1, generation=1, done=TASKS, resolved=TASKS)
    action = policy.next(view(failed_seed, finished, bad), InFlight(), Allowance(), RNG)
    assert isinstance(action, Expand) and action.generation == 2
