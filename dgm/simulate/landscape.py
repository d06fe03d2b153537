"""A synthetic landscape of self-improving agents, for comparing search policies offline.

Each agent has a hidden skill p (its expected resolve rate on the benchmark) and a hidden
metaproductivity m (the expected change of skill from it to a child). A child gets
p' = clip(p + d), d ~ N(m, step_sd); its m is partly inherited. `corr` sets how a node's m
relates to its own skill: +1, better agents are better improvers; 0, unrelated; -1,
better agents are worse improvers (the metaproductivity-performance mismatch). Task
difficulty varies (logit scale); an evaluation is a Bernoulli draw.

A judge (for judge-first staging) reviews a patch without running tests: its score has
logit judge_corr * logit(q) + judge_noise * e, e ~ N(0, 1), where q is the agent's chance on
the task. judge_corr 1 and judge_noise 0 is a calibrated judge (score = q); judge_corr 0 is a
judge that sees nothing. A review costs judge_cost evaluations of budget."""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Landscape:
    n_tasks: int = 50  # tasks in the benchmark
    p0: float = 0.15  # the seed's skill
    m0: float = 0.01  # mean metaproductivity: expected skill change from parent to child
    m_sd: float = 0.04  # spread of metaproductivity between agents
    corr: float = 0.0  # correlation of an agent's metaproductivity with its skill (-1..1)
    inherit: float = 0.8  # share of a parent's idiosyncratic metaproductivity a child keeps
    step_sd: float = 0.05  # noise of a child's skill change
    invalid: float = 0.2  # probability that a child is invalid
    task_sd: float = 1.0  # spread of task difficulty (logit scale)
    expand_cost: float = 1.0  # budget one expansion costs, in evaluations
    judge_corr: float = 0.7  # how strongly the judge's score follows the agent's chance on the task
    judge_noise: float = 1.0  # the judge's noise (logit scale)
    judge_cost: float = 0.1  # budget one review costs, in evaluations (one call against a solve's many)

    @classmethod
    def parse(cls, items: list[str] | tuple[str, ...]) -> Landscape:
        """From `key=value` strings (the --landscape options)."""
        fields = {f.name: f.type for f in dataclasses.fields(cls)}
        values = {}
        for item in items:
            key, sep, raw = item.partition("=")
            if not sep or key not in fields:
                raise ValueError(f"--landscape {item!r}: expected KEY=VALUE with KEY one of {', '.join(fields)}")
            try:
                values[key] = int(raw) if fields[key] in ("int", int) else float(raw)
            except ValueError:
                raise ValueError(f"--landscape {item!r}: {raw!r} is not a number") from None
        landscape = cls(**values)
        checks = (
            (-1 <= landscape.corr <= 1, "corr must be in [-1, 1]"),
            (0 <= landscape.inherit <= 1, "inherit must be in [0, 1]"),
            (0 <= landscape.invalid < 1, "invalid must be in [0, 1)"),
            (-1 <= landscape.judge_corr <= 1, "judge_corr must be in [-1, 1]"),
            (landscape.judge_noise >= 0 and landscape.judge_cost >= 0, "judge_noise and judge_cost must be >= 0"),
            (landscape.n_tasks >= 1 and 0 < landscape.p0 < 1, "n_tasks must be >= 1 and p0 in (0, 1)"),
        )
        for ok, message in checks:
            if not ok:
                raise ValueError(f"--landscape: {message}")
        return landscape


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


@dataclass
class Agent:
    p: float  # hidden skill, as drawn
    z: float  # idiosyncratic metaproductivity latent, N(0, 1)
    solve: tuple[float, ...]  # probability of solving each task
    skill: float  # true benchmark performance: mean of `solve`


class World:
    """The hidden truth of one simulated run."""

    def __init__(self, landscape: Landscape, seed: int):
        self.l = landscape
        self.rng = random.Random(f"world:{seed}")
        self.judge_rng = random.Random(f"judge:{seed}")  # its own stream: reviews leave the world's draws alone
        self.difficulty = [self.rng.gauss(0, landscape.task_sd) for _ in range(landscape.n_tasks)]
        self.tasks = tuple(f"t{i:03d}" for i in range(landscape.n_tasks))
        self.index = {t: i for i, t in enumerate(self.tasks)}
        self.agents: dict[int, Agent] = {}

    def _agent(self, p: float, z: float) -> Agent:
        p = min(max(p, 0.001), 0.999)
        solve = tuple(_sigmoid(_logit(p) - b) for b in self.difficulty)
        return Agent(p, z, solve, sum(solve) / len(solve))

    def seed(self, node_id: int) -> None:
        self.agents[node_id] = self._agent(self.l.p0, self.rng.gauss(0, 1))

    def m(self, node_id: int) -> float:
        """Hidden metaproductivity: expected skill change of a child of this node."""
        a, land = self.agents[node_id], self.l
        zp = (a.p - land.p0) / 0.2
        return land.m0 + land.m_sd * (land.corr * zp + math.sqrt(1 - land.corr**2) * a.z)

    def expand(self, parent: int, child: int) -> bool:
        """Make `child` from `parent`; returns whether it is valid."""
        land, a = self.l, self.agents[parent]
        z = land.inherit * a.z + math.sqrt(1 - land.inherit**2) * self.rng.gauss(0, 1)
        self.agents[child] = self._agent(a.p + self.rng.gauss(self.m(parent), land.step_sd), z)
        return self.rng.random() >= land.invalid

    def evaluate(self, node_id: int, task: str) -> bool:
        return self.rng.random() < self.agents[node_id].solve[self.index[task]]

    def judge(self, node_id: int, task: str) -> float:
        """A review of the agent's patch on `task`: a score in (0, 1), noisy as the landscape says."""
        q = min(max(self.agents[node_id].solve[self.index[task]], 1e-9), 1 - 1e-9)
        return _sigmoid(self.l.judge_corr * _logit(q) + self.l.judge_noise * self.judge_rng.gauss(0, 1))
