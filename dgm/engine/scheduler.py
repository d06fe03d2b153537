"""The ask/tell core of a run, shared by the engine and the simulator: what the limits
still allow, which one ends the run, and the next action, drawn with an RNG seeded by
(seed, decision number). The simulator sets no limits here; it counts its own budget.
`tell` is the view cache's business (results and children go into `ViewCache`)."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any

from .config import RunConfig
from .policies import POLICIES, Action, Allowance, Expand, InFlight, Policy, complement
from .selectors import Selector, make_selector
from .view import View


def make_policy(mode: str, selector: Selector | str | None = None, **settings: Any) -> Policy:
    """The policy named `mode` (a POLICIES entry) with `selector` (default: its own) and
    the settings it has fields for (alpha, children, stages, threshold, group_size)."""
    if mode not in POLICIES:
        raise ValueError(f"unknown mode {mode!r}; one of {', '.join(POLICIES)}")
    cls = POLICIES[mode]
    if isinstance(selector, str):
        selector = make_selector(selector)
    fields = {f.name for f in dataclasses.fields(cls)}
    chosen = {k: v for k, v in settings.items() if k in fields}
    return cls(selector=selector or make_selector(cls.default_selector), **chosen)


@dataclass
class Scheduler:
    policy: Policy
    seed: int = 0
    max_evals: int | None = None
    max_expansions: int | None = None
    cooldown: float = 0.0
    recombine: float = 0.0  # the chance an expansion also takes a second parent (policies.complement)

    def _used(self, view: View, flight: InFlight) -> tuple[int, int]:
        """(evaluations, expansions) done or in flight."""
        return view.evaluations() + len(flight.evaluations), len(view.nodes) - 1 + len(flight.expands)

    def allowance(self, view: View, flight: InFlight) -> Allowance:
        """Any one limit ends its kind of work; the evaluation limit ends all new work (a
        child nobody may evaluate is spent for nothing)."""
        evals, expansions = self._used(view, flight)
        evaluate = self.max_evals is None or evals < self.max_evals
        cooling = bool(self.max_evals and self.cooldown and evals >= (1 - self.cooldown) * self.max_evals)
        return Allowance(
            expand=evaluate and (self.max_expansions is None or expansions < self.max_expansions),
            evaluate=evaluate,
            cooling=cooling,
        )

    def limit_reached(self, view: View) -> str | None:
        """The limit that ends the run (in-flight jobs may finish), or None. Evaluations
        count once done: while the last ones run, `allowance` already holds new work back,
        and one that fails is tried again. The expansion limit alone ends nothing:
        evaluation goes on until nothing is left."""
        if self.max_evals is not None and view.evaluations() >= self.max_evals:
            return f"--max-evals {self.max_evals} reached"
        return None

    def idle_reason(self, view: View) -> str:
        """Why the policy has nothing more to do, with nothing in flight."""
        reached = self.limit_reached(view)
        if reached:
            return reached
        if self.max_expansions is not None and len(view.nodes) - 1 >= self.max_expansions:
            return f"--max-expansions {self.max_expansions} reached and nothing left to evaluate"
        return "nothing left to do: every agent is evaluated on every task it may be"

    @classmethod
    def for_config(cls, cfg: RunConfig) -> Scheduler:
        """The scheduler a run with configuration `cfg` uses."""
        policy = make_policy(
            cfg.mode,
            cfg.selector_name,
            alpha=cfg.alpha,
            children=cfg.children,
            stages=cfg.stages,
            threshold=cfg.threshold,
            group_size=cfg.group_size,
        )
        return cls(policy, cfg.seed, cfg.max_evals, cfg.max_expansions, cfg.cooldown, cfg.recombine)

    def ask(self, view: View, flight: InFlight, decision: int) -> Action | None:
        """The next action, or None (wait for in-flight work, or nothing is left)."""
        rng = random.Random(f"{self.seed}:{decision}")
        action = self.policy.next(view, flight, self.allowance(view, flight), rng)
        if isinstance(action, Expand) and self.recombine and rng.random() < self.recombine:
            second = complement(view, action.parent)
            if second is not None:
                action = dataclasses.replace(action, second=second)
        return action
