"""The contract every selector keeps, and the final-agent rules."""

from __future__ import annotations

import random
from types import MappingProxyType

import pytest

from dgm.engine import final
from dgm.engine.selectors import SELECTORS, make_selector
from dgm.engine.view import NodeStats, View


def view_of(spec: dict[int, tuple], tasks=("a", "b", "c")) -> View:
    """spec: id -> (parent, successes, failures, clade_s, clade_f, n_children[, status])."""
    nodes = {}
    for i, row in spec.items():
        parent, s, f, cs, cf, kids, *status = row
        nodes[i] = NodeStats(
            i, parent, status[0] if status else "valid", 0, s, f, cs, cf, kids, frozenset(tasks[: s + f])
        )
    return View(MappingProxyType(nodes), tuple(tasks))


VIEW = view_of(
    {
        1: (None, 1, 2, 6, 6, 3),
        2: (1, 3, 0, 3, 0, 0),
        3: (1, 0, 3, 2, 5, 1),
        4: (3, 2, 1, 2, 1, 0),
        5: (1, 0, 0, 0, 0, 0, "invalid"),
    }
)


@pytest.mark.parametrize("name", sorted(SELECTORS))
def test_selector_contract(name):
    selector = make_selector(name)
    eligible = VIEW.valid()
    picks = selector.select(VIEW, eligible, 20, random.Random(1))
    assert len(picks) == 20
    assert set(picks) <= set(eligible)
    assert selector.select(VIEW, eligible, 20, random.Random(1)) == picks  # same seed, same choice
    lone = view_of({1: (None, 0, 0, 0, 0, 0)})
    assert selector.select(lone, [1], 3, random.Random(0)) == [1, 1, 1]


def test_best_returns_the_top():
    assert make_selector("best").select(VIEW, VIEW.valid(), 1, random.Random(0)) == [2]


def test_score_child_prop_penalises_many_children():
    view = view_of({1: (None, 2, 2, 2, 2, 5), 2: (1, 2, 2, 2, 2, 0)})
    picks = make_selector("score_child_prop").select(view, [1, 2], 3000, random.Random(0))
    assert 0.75 < picks.count(2) / 3000 < 0.92  # weights 1/6 vs 1/1


def test_cmp_thompson_follows_clade_success_and_never_stalls():
    picks = make_selector("cmp_thompson").select(VIEW, VIEW.valid(), 2000, random.Random(0))
    assert picks.count(2) > picks.count(3)  # clade 3/0 beats clade 2/5
    nothing = view_of({1: (None, 0, 4, 0, 4, 1), 2: (1, 0, 0, 0, 0, 0)})
    assert set(make_selector("cmp_thompson").select(nothing, [1, 2], 200, random.Random(0))) == {1, 2}


def test_unknown_selector_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown selector 'greedy'"):
        make_selector("greedy")


def test_wilson_and_beta_quantile_against_known_values():
    lo, hi = final.wilson_interval(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-3)
    assert hi == pytest.approx(0.9433, abs=1e-3)
    assert final.wilson_lower(0, 0) == 0.0
    assert final.beta_quantile(0.1, 1, 1) == pytest.approx(0.1, abs=1e-6)
    assert final.beta_quantile(0.25, 2, 1) == pytest.approx(0.5, abs=1e-6)  # cdf x^2
    assert final.beta_quantile(0.5, 5, 5) == pytest.approx(0.5, abs=1e-6)


def test_final_rules_are_noise_aware():
    view = view_of({1: (None, 1, 0, 1, 0, 1), 2: (1, 8, 2, 8, 2, 0), 3: (1, 0, 0, 0, 0, 0)})
    assert final.best(view, "mean") == 1  # 1/1 looks perfect
    assert final.best(view, "lcb") == 2  # 8/10 is the better bet
    assert final.best(view, "quantile") == 2
    assert final.best(view_of({1: (None, 0, 0, 0, 0, 0)})) is None
