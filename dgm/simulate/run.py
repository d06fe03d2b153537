"""One simulated run: the engine's own scheduler, policies, selectors, view cache and
final-agent rules, with a simulated executor (the landscape) in place of sandboxes and a
model. One job at a time; the budget counts evaluations (an expansion costs
`expand_cost` of them, a judge's review `judge_cost`).

Judge-first staging (`Settings.judge_first`) works as the engine's: a new agent's first
patch is reviewed before grading; below the gate the agent is invalid from then on (its
result is recorded as a failure, as the engine records a gated evaluation); the seed is
never gated."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine import final
from ..engine.admission import make_admission
from ..engine.policies import Expand, InFlight
from ..engine.scheduler import Scheduler, make_policy
from ..engine.selectors import Selector, make_selector
from ..engine.view import ViewCache
from .landscape import Landscape, World
from .oracle import OracleSelector

CHECKPOINTS = 40


@dataclass(frozen=True)
class Settings:
    """What a simulated run is run under, besides the landscape, selector, seed and budget."""

    mode: str = "hgm"
    final_rule: str = "quantile"
    target: float = 0.4  # hidden skill of the final pick counted as reached
    alpha: float = 0.6
    admission: str = "any"
    judge_first: float | None = None  # the gate; None: no judge


@dataclass(frozen=True)
class RunResult:
    final_skill: float  # hidden skill of the agent the final rule picks at the end
    best_in_archive: float  # best hidden skill among valid agents
    budget_to_target: float | None  # budget spent when the final rule's pick first had the target skill
    curve: tuple[tuple[float, float], ...]  # (budget spent, hidden skill of the final pick)
    agents: int
    evaluations: int  # results recorded (gated ones included)
    judged: int  # reviews bought (judge-first)
    gated: int  # agents the judge stopped


class Run:
    """One simulated run. `selector` is a registry name, "oracle", or a function of the
    run's world (the hidden truth) that returns a selector, for bounds that see part of
    the truth (benchmarks/bench_gap_bounds.py). After `run`, `world` and `cache` hold the
    run's end state."""

    def __init__(
        self,
        landscape: Landscape,
        selector: str | Callable[[World], Selector],
        seed: int,
        settings: Settings = Settings(),
    ):
        self.landscape, self.settings = landscape, settings
        self.world = world = World(landscape, seed)
        if callable(selector):
            chooser = selector(world)
        else:
            chooser = OracleSelector(world) if selector == "oracle" else make_selector(selector)
        policy = make_policy(settings.mode, chooser, alpha=settings.alpha, stages=(10, 25))
        self.scheduler = Scheduler(policy, seed=seed)
        self.cache = ViewCache(world.tasks, make_admission(settings.admission))
        world.seed(1)
        self.cache.add_node(1, None, "valid", 0)
        self.pick = final.FinalPick(settings.final_rule)

    def skill_of_pick(self) -> float:
        return self.world.agents[self.pick.best if self.pick.best is not None else 1].skill

    def run(self, budget: float) -> RunResult:
        landscape, settings, world, cache, pick = self.landscape, self.settings, self.world, self.cache, self.pick
        spent, decision, reached, next_mark = 0.0, 0, None, 0.0
        evaluations = judged = gated = 0
        curve: list[tuple[float, float]] = []
        best_valid = world.agents[1].skill
        if self.skill_of_pick() >= settings.target:
            reached = 0.0
        while spent < budget:
            action = self.scheduler.ask(cache.view(), InFlight(), decision)
            decision += 1
            if action is None:
                break
            if isinstance(action, Expand):
                child = len(cache.nodes) + 1
                valid = world.expand(action.parent, child)
                cache.add_node(child, action.parent, "valid" if valid else "invalid", action.generation)
                spent += landscape.expand_cost
                if valid:
                    best_valid = max(best_valid, world.agents[child].skill)
            else:
                node, task = action.node, action.task
                stop = False
                if settings.judge_first is not None and node != 1 and not cache.nodes[node].n:
                    judged += 1
                    spent += landscape.judge_cost
                    stop = world.judge(node, task) < settings.judge_first
                resolved = False if stop else world.evaluate(node, task)
                cache.add_result(node, task, resolved)
                evaluations += 1
                spent += 1
                if stop:
                    gated += 1
                    cache.set_status(node, "invalid")
                pick.update(cache.nodes[node])
            if reached is None and self.skill_of_pick() >= settings.target:
                reached = spent
            if spent >= next_mark:
                curve.append((spent, self.skill_of_pick()))
                next_mark += budget / CHECKPOINTS
        return RunResult(
            self.skill_of_pick(), best_valid, reached, tuple(curve), len(cache.nodes), evaluations, judged, gated
        )


def simulate(
    landscape: Landscape, selector: str, seed: int, budget: float, settings: Settings = Settings()
) -> RunResult:
    return Run(landscape, selector, seed, settings).run(budget)
