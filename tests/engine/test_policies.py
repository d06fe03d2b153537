"""The hgm and dgm policies on hand-made views."""

from __future__ import annotations

import random
from types import MappingProxyType

from dgm.engine.admission import ANY
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
        frozenset(t for t in done if t in resolved),
    )


def view(*nodes, admission=ANY):
    return View(MappingProxyType({n.id: n for n in nodes}), TASKS, admission)


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


DGM = DGMPolicy(children=2, stages=(2, 4), threshold=0.5, top_margin=0.1)
FAILED_SEED = node(1, done=("t0", "t1"))  # the seed failed its first stage (2 tasks)


def test_dgm_evaluates_the_seed_on_its_first_stage():
    assert DGM.next(view(node(1)), InFlight(), Allowance(), RNG) == Evaluate(1, "t0")


def test_dgm_seed_that_fails_stage_one_is_not_evaluated_further_and_generation_one_starts():
    first = DGM.next(view(FAILED_SEED), InFlight(), Allowance(), RNG)
    assert first == Expand(1, 1)
    assert DGM.next(view(FAILED_SEED), InFlight(expands=(first,)), Allowance(), RNG) == Expand(1, 1)


def test_dgm_makes_no_more_than_its_children_per_generation():
    first = Expand(1, 1)
    assert DGM.next(view(FAILED_SEED), InFlight(expands=(first, first)), Allowance(), RNG) is None


def test_dgm_child_that_passes_stage_one_goes_on_to_stage_two_and_one_that_fails_stops():
    good = node(2, parent=1, generation=1, done=("t0", "t1"), resolved=("t0",))
    bad = node(3, parent=1, generation=1, done=("t0", "t1"))
    assert DGM.next(view(FAILED_SEED, good, bad), InFlight(), Allowance(), RNG) == Evaluate(2, "t2")


def test_dgm_child_at_the_top_after_stage_two_is_evaluated_on_the_full_set():
    top = node(2, parent=1, generation=1, done=TASKS[:4], resolved=("t0", "t1", "t2"))
    bad = node(3, parent=1, generation=1, done=("t0", "t1"))
    assert DGM.next(view(FAILED_SEED, top, bad), InFlight(), Allowance(), RNG) == Evaluate(2, "t4")


def test_dgm_starts_generation_two_once_generation_one_is_done():
    finished = node(2, parent=1, generation=1, done=TASKS, resolved=TASKS)
    bad = node(3, parent=1, generation=1, done=("t0", "t1"))
    action = DGM.next(view(FAILED_SEED, finished, bad), InFlight(), Allowance(), RNG)
    assert isinstance(action, Expand)
    assert action.generation == 2
