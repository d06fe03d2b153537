"""Parent selectors (Optuna-sampler style): classes constructed with their parameters,
given the run's seeded RNG at each call. `select(view, eligible, k, rng)` returns k ids
from `eligible` (with replacement where the rule samples). One registry; the CLI's
choices come from it. Sampling is vectorised (numpy), so a decision over 100,000 nodes
stays in milliseconds; a numpy generator is seeded from `rng`, so the same seed gives the
same choice."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol

import numpy as np

from .lineage import LineageModel, Plan, Prior, thompson_wins
from .view import View

if TYPE_CHECKING:
    from .policies import InFlight


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


class LineageSelector:
    """Beyond HGM: each agent's skill p and metaproductivity m estimated down its lineage
    (lineage.py), parents by Thompson sampling on the expected skill of their next child
    (p + m); under hgm and gea it also plans the run (`plan`): when to expand and what to
    evaluate, instead of the fixed n_evals ** alpha.

    The plan: below `min_exponent` (nodes < evals ** 0.45) it expands; up to `max_exponent`
    (nodes <= evals ** 0.85) it expands whenever one parent wins at least `confidence` of
    `draws` joint Thompson draws; otherwise it evaluates where an evaluation can change a
    decision: among the top two of that race (the next parent) and the top two of the race
    on p alone (the final pick), the one whose own skill is least certain. The seed is
    evaluated first, as under every selector. Under dgm the plan keeps dgm's generations
    and first stage, and replaces the later stages (policies.DGMPolicy)."""

    name: ClassVar[str] = "lineage"

    def __init__(
        self,
        explore: float = 0.5,
        draws: int = 32,
        confidence: float = 0.15,
        min_exponent: float = 0.45,
        max_exponent: float = 0.85,
        shortlist: int = 256,
        prior: Prior | None = None,
    ):
        self.explore, self.draws, self.confidence = explore, draws, confidence
        self.min_exponent, self.max_exponent, self.shortlist = min_exponent, max_exponent, shortlist
        self.model = LineageModel(prior)

    def select(self, view: View, eligible: Sequence[int], k: int, rng: random.Random) -> list[int]:
        self.model.update(view)
        rows = self.model.rows(list(eligible))
        mu, sd = self.model.mean_next[rows], self.explore * self.model.sd_next[rows]
        gen = numpy_rng(rng)
        return [eligible[int(np.argmax(mu + sd * gen.standard_normal(len(rows))))] for _ in range(k)]

    def plan(self, view: View, flight: InFlight, rng: random.Random) -> Plan:
        model = self.model
        model.update(view)
        parents = view.parents()
        if not parents:
            return Plan()
        evaluations, nodes = view.evaluations(), len(view.nodes) - 1 + len(flight.expands)
        if nodes < evaluations**self.min_exponent:
            return Plan(expand=self.select(view, parents, 1, rng)[0])
        gen = numpy_rng(rng)
        rows = model.rows(parents)
        order, wins = thompson_wins(model.mean_next[rows], model.sd_next[rows], self.draws, self.shortlist, gen)
        may_expand = nodes <= evaluations**self.max_exponent
        if may_expand and wins[0] >= self.confidence * self.draws:
            return Plan(expand=parents[order[0]])
        valid = view.valid()
        p_order, p_wins = thompson_wins(
            model.mean_p[model.rows(valid)], model.sd_p[model.rows(valid)], self.draws, self.shortlist, gen
        )
        busy = flight.busy()
        total = len(view.tasks)
        racers = [parents[j] for j, w in zip(order[:2], wins[:2], strict=True) if w]
        racers += [valid[j] for j, w in zip(p_order[:2], p_wins[:2], strict=True) if w]
        open_racers = [i for i in dict.fromkeys(racers) if len(view.nodes[i].evaluated) + busy.get(i, 0) < total]
        if open_racers:
            return Plan(evaluate=max(open_racers, key=lambda i: (model.sd_p[model.row[i]], -i)))
        return Plan(expand=parents[order[0]]) if may_expand else Plan()


SELECTORS: dict[str, type] = {
    cls.name: cls
    for cls in (
        RandomSelector,
        BestSelector,
        ScorePropSelector,
        ScoreChildPropSelector,
        CmpThompsonSelector,
        LineageSelector,
    )
}


def make_selector(name: str, **params) -> Selector:
    if name not in SELECTORS:
        raise ValueError(f"unknown selector {name!r}; one of {', '.join(SELECTORS)}")
    return SELECTORS[name](**params)
