"""One simulated run: the engine's own scheduler, policies, selectors, view cache and
final-agent rules, with a simulated executor (the landscape) in place of sandboxes and a
model. One job at a time; the budget counts evaluations (an expansion costs
`expand_cost` of them)."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import final
from ..engine.admission import make_admission
from ..engine.policies import Expand, InFlight
from ..engine.scheduler import Scheduler, make_policy
from ..engine.selectors import make_selector
from ..engine.view import ViewCache
from .landscape import Landscape, World
from .oracle import OracleSelector

CHECKPOINTS = 40


@dataclass(frozen=True)
class RunResult:
    final_skill: float  # hidden skill of the agent the final rule picks at the end
    best_in_archive: float  # best hidden skill among valid agents
    budget_to_target: float | None  # budget spent when a valid agent first reached the target
    curve: tuple[tuple[float, float], ...]  # (budget spent, hidden skill of the final pick)
    agents: int


def simulate(
    landscape: Landscape,
    selector: str,
    seed: int,
    budget: float,
    mode: str = "hgm",
    final_rule: str = "quantile",
    target: float = 0.4,
    alpha: float = 0.6,
    admission: str = "any",
) -> RunResult:
    world = World(landscape, seed)
    chooser = OracleSelector(world) if selector == "oracle" else make_selector(selector)
    scheduler = Scheduler(make_policy(mode, chooser, alpha=alpha, stages=(10, 25)), seed=seed)
    cache = ViewCache(world.tasks, make_admission(admission))
    world.seed(1)
    cache.add_node(1, None, "valid", 0)
    spent, decision, reached, next_mark = 0.0, 0, None, 0.0
    curve: list[tuple[float, float]] = []
    best_valid = world.agents[1].skill
    if best_valid >= target:
        reached = 0.0
    while spent < budget:
        view = cache.view()
        action = scheduler.ask(view, InFlight(), decision)
        decision += 1
        if action is None:
            break
        if isinstance(action, Expand):
            child = len(cache.nodes) + 1
            valid = world.expand(action.parent, child)
            cache.add_node(child, action.parent, "valid" if valid else "invalid", action.generation)
            spent += landscape.expand_cost
            if valid and world.agents[child].skill > best_valid:
                best_valid = world.agents[child].skill
                if reached is None and best_valid >= target:
                    reached = spent
        else:
            cache.add_result(action.node, action.task, world.evaluate(action.node, action.task))
            spent += 1
        if spent >= next_mark:
            pick = final.best(cache.view(), final_rule)
            curve.append((spent, world.agents[pick].skill if pick is not None else world.agents[1].skill))
            next_mark += budget / CHECKPOINTS
    pick = final.best(cache.view(), final_rule)
    final_skill = world.agents[pick].skill if pick is not None else world.agents[1].skill
    return RunResult(final_skill, best_valid, reached, tuple(curve), len(cache.nodes))
