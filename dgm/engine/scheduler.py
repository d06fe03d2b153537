"""The ask/tell core of a run, shared by the engine and the simulator: what the limits
still allow, and the next action, drawn with an RNG seeded by (seed, decision number).
`tell` is the view cache's business (results and children go into `ViewCache`)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .policies import Action, Allowance, DGMPolicy, HGMPolicy, InFlight, Policy
from .selectors import Selector, make_selector
from .view import View


def make_policy(
    mode: str,
    selector: Selector | str | None = None,
    *,
    alpha: float = 0.6,
    children: int = 4,
    stages: tuple[int, ...] = (10, 25),
    threshold: float = 0.4,
) -> Policy:
    if isinstance(selector, str):
        selector = make_selector(selector)
    if mode == "hgm":
        return HGMPolicy(alpha=alpha, selector=selector or make_selector("cmp_thompson"))
    if mode == "dgm":
        return DGMPolicy(
            children=children,
            stages=stages,
            threshold=threshold,
            selector=selector or make_selector("score_child_prop"),
        )
    raise ValueError(f"unknown mode {mode!r}; hgm or dgm")


@dataclass
class Scheduler:
    policy: Policy
    seed: int = 0
    max_evals: int | None = None
    max_expansions: int | None = None
    cooldown: float = 0.0

    def allowance(self, view: View, flight: InFlight) -> Allowance:
        evals = view.evaluations() + len(flight.evaluations)
        expansions = len(view.nodes) - 1 + len(flight.expands)
        cooling = bool(self.max_evals and self.cooldown and evals >= (1 - self.cooldown) * self.max_evals)
        return Allowance(
            expand=self.max_expansions is None or expansions < self.max_expansions,
            evaluate=self.max_evals is None or evals < self.max_evals,
            cooling=cooling,
        )

    def ask(self, view: View, flight: InFlight, decision: int) -> Action | None:
        """The next action, or None (wait for in-flight work, or nothing is left)."""
        rng = random.Random(f"{self.seed}:{decision}")
        return self.policy.next(view, flight, self.allowance(view, flight), rng)
