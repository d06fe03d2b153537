"""Parent selectors (Optuna-sampler style): classes constructed with their parameters,
given the run's seeded RNG at each call. `select(view, eligible, k, rng)` returns k ids
from `eligible` (with replacement where the rule samples). One registry; the CLI's
choices come from it. Sampling is vectorised (numpy), so a decision over 100,000 nodes
stays in milliseconds; a numpy generator is seeded from `rng`, so the same seed gives the
same choice."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Protocol

import numpy as np

from .view import View


class Selector(Protocol):
    name: ClassVar[str]

    def select(self, view: View, eligible: Sequence[int], k: int, rng: random.Random) -> list[int]: ...


def numpy_rng(rng: random.Random) -> np.random.Generator:
    return np.random.default_rng(rng.getrandbits(64))


def _arrays(view: View, eligible: Sequence[int], *fields: str) -> list[np.ndarray]:
    nodes = [view.nodes[i] for i in eligible]
    return [np.fromiter((getattr(n, f) for n in nodes), dtype=float, count=len(nodes)) for f in fields]


def _weighted(ids: Sequence[int], weights: np.ndarray, k: int, rng: random.Random) -> list[int]:
    gen = numpy_rng(rng)
    total = weights.sum()
    if not total > 0:
        return [ids[j] for j in gen.integers(0, len(ids), size=k)]
    return [ids[j] for j in gen.choice(len(ids), size=k, p=weights / total)]


def thompson(successes: np.ndarray, failures: np.ndarray, k: int, rng: random.Random) -> list[int]:
    """k Thompson draws over Beta(1 + s, 1 + f): the index of the largest draw each time
    (ties to the lowest index)."""
    gen = numpy_rng(rng)
    return [int(np.argmax(gen.beta(1 + successes, 1 + failures))) for _ in range(k)]


class RandomSelector:
    name: ClassVar[str] = "random"

    def select(self, view: View, eligible: Sequence[int], k: int, rng: random.Random) -> list[int]:
        return [eligible[j] for j in numpy_rng(rng).integers(0, len(eligible), size=k)]


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
        s, n = _arrays(view, eligible, "successes", "n")
        return _weighted(eligible, np.divide(s, n, out=np.zeros_like(s), where=n > 0), k, rng)


class ScoreChildPropSelector:
    """DGM's rule: sigmoid(steepness * (acc - midpoint)) / (1 + n_children), with replacement."""

    name: ClassVar[str] = "score_child_prop"

    def __init__(self, steepness: float = 10.0, midpoint: float = 0.5):
        self.steepness, self.midpoint = steepness, midpoint

    def select(self, view: View, eligible: Sequence[int], k: int, rng: random.Random) -> list[int]:
        s, n, kids = _arrays(view, eligible, "successes", "n", "n_children")
        acc = np.divide(s, n, out=np.zeros_like(s), where=n > 0)
        return _weighted(eligible, 1 / (1 + np.exp(-self.steepness * (acc - self.midpoint))) / (1 + kids), k, rng)


class CmpThompsonSelector:
    """HGM: Thompson sampling over Beta(1 + clade successes, 1 + clade failures), among
    nodes whose clade has at least one success; while none has (a weak model may solve
    nothing at first), among all eligible nodes, where the Beta(1, 1) prior decides."""

    name: ClassVar[str] = "cmp_thompson"

    def select(self, view: View, eligible: Sequence[int], k: int, rng: random.Random) -> list[int]:
        pool = [i for i in eligible if view.nodes[i].clade_successes > 0] or list(eligible)
        s, f = _arrays(view, pool, "clade_successes", "clade_failures")
        return [pool[j] for j in thompson(s, f, k, rng)]


SELECTORS: dict[str, type] = {
    cls.name: cls
    for cls in (RandomSelector, BestSelector, ScorePropSelector, ScoreChildPropSelector, CmpThompsonSelector)
}


def make_selector(name: str, **params) -> Selector:
    if name not in SELECTORS:
        raise ValueError(f"unknown selector {name!r}; one of {', '.join(SELECTORS)}")
    return SELECTORS[name](**params)
