"""Parent selectors (Optuna-sampler style): classes constructed with their parameters,
given the run's seeded RNG at each call. `select(view, eligible, k, rng)` returns k ids
from `eligible` (with replacement where the rule samples). One registry; the CLI's
choices come from it."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import ClassVar, Protocol

from .view import View


class Selector(Protocol):
    name: ClassVar[str]

    def select(self, view: View, eligible: Sequence[int], k: int, rng: random.Random) -> list[int]: ...


def _weighted(ids: Sequence[int], weights: Sequence[float], k: int, rng: random.Random) -> list[int]:
    if not any(w > 0 for w in weights):
        return [rng.choice(list(ids)) for _ in range(k)]
    return rng.choices(list(ids), weights=list(weights), k=k)


class RandomSelector:
    name: ClassVar[str] = "random"

    def select(self, view: View, eligible: Sequence[int], k: int, rng: random.Random) -> list[int]:
        return [rng.choice(list(eligible)) for _ in range(k)]


class BestSelector:
    """The top node by its own resolve rate (ties: more evaluations, then older)."""

    name: ClassVar[str] = "best"

    def select(self, view: View, eligible: Sequence[int], k: int, rng: random.Random) -> list[int]:
        top = max(eligible, key=lambda i: (view.nodes[i].mean, view.nodes[i].n, -i))
        return [top] * k


class ScorePropSelector:
    """Probability proportional to the node's own resolve rate."""

    name: ClassVar[str] = "score_prop"

    def select(self, view: View, eligible: Sequence[int], k: int, rng: random.Random) -> list[int]:
        return _weighted(eligible, [view.nodes[i].mean for i in eligible], k, rng)


class ScoreChildPropSelector:
    """DGM's rule: sigmoid(steepness * (acc - midpoint)) / (1 + n_children), with replacement."""

    name: ClassVar[str] = "score_child_prop"

    def __init__(self, steepness: float = 10.0, midpoint: float = 0.5):
        self.steepness, self.midpoint = steepness, midpoint

    def select(self, view: View, eligible: Sequence[int], k: int, rng: random.Random) -> list[int]:
        def weight(i: int) -> float:
            node = view.nodes[i]
            return 1 / (1 + math.exp(-self.steepness * (node.mean - self.midpoint))) / (1 + node.n_children)

        return _weighted(eligible, [weight(i) for i in eligible], k, rng)


class CmpThompsonSelector:
    """HGM: Thompson sampling over Beta(1 + clade successes, 1 + clade failures), among
    nodes whose clade has at least one success; while none has (a weak model may solve
    nothing at first), among all eligible nodes, where the Beta(1, 1) prior decides."""

    name: ClassVar[str] = "cmp_thompson"

    def select(self, view: View, eligible: Sequence[int], k: int, rng: random.Random) -> list[int]:
        pool = [i for i in eligible if view.nodes[i].clade_successes > 0] or list(eligible)
        picks = []
        for _ in range(k):
            draws = {
                i: rng.betavariate(1 + view.nodes[i].clade_successes, 1 + view.nodes[i].clade_failures) for i in pool
            }
            picks.append(max(pool, key=lambda i: (draws[i], -i)))
        return picks


SELECTORS: dict[str, type] = {
    cls.name: cls
    for cls in (RandomSelector, BestSelector, ScorePropSelector, ScoreChildPropSelector, CmpThompsonSelector)
}


def make_selector(name: str, **params) -> Selector:
    if name not in SELECTORS:
        raise ValueError(f"unknown selector {name!r}; one of {', '.join(SELECTORS)}")
    return SELECTORS[name](**params)
