"""Lineage estimates: each agent's skill and metaproductivity, filtered down the tree.

An agent's state is (p, m): its skill (expected resolve rate) and its metaproductivity
(the expected change of skill from it to a child). Down a parent-to-child edge,

    p_child = p + m + step noise          m_child = rho * m + noise (sd m_sd * sqrt(1 - rho^2))

and an agent's own results observe p with binomial noise. A Kalman filter runs from the
seed down every root-to-node path, so a new agent starts from its parent's estimate plus
the lineage's drift, and a lineage whose agents keep getting better carries that in m.
For scoring an agent as a parent, its evaluated children's results are folded in once
more (each observes p + m), so an agent whose children did well is a better bet.

The model is incremental: a node is refiltered only when its own results, or an
ancestor's, changed since the last decision (found by the identity of its frozen
`NodeStats`), so a decision at 100k nodes costs a scan, not a rebuild. Results are read
as the run's utility values them (successes and failures)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .view import NodeStats, View

State = tuple[float, float, float, float, float]  # p, m, and the covariance (var p, cov, var m)


@dataclass(frozen=True)
class Prior:
    """What the filter assumes before any result: a child's skill step and how much of its
    parent's metaproductivity it keeps."""

    rho: float = 0.8  # share of a parent's metaproductivity a child keeps
    step: float = 0.05  # sd of a child's skill change beyond its parent's m
    m_sd: float = 0.04  # sd of metaproductivity between agents
    floor: float = 0.05  # the least binomial variance p(1 - p) an observation is given


def _observation(node: NodeStats, floor: float) -> tuple[float, float] | None:
    """(mean, variance of the mean) of a valid node's own results; None without any."""
    n = node.n
    if not n or node.status != "valid":
        return None
    y = min(max(node.successes / n, 0.0), 1.0)
    return y, max(y * (1 - y), floor) / n


class LineageModel:
    def __init__(self, prior: Prior | None = None):
        self.prior = prior or Prior()
        self.stats: dict[int, NodeStats] = {}  # the NodeStats each state was computed from
        self.state: dict[int, State] = {}
        self.children: dict[int, list[int]] = {}
        self.row: dict[int, int] = {}
        size = 1024
        self.mean_next = np.zeros(size)  # E[p + m]: the expected skill of a next child
        self.sd_next = np.ones(size)
        self.mean_p = np.zeros(size)  # E[p]: the agent's own skill, its children's results included
        self.sd_p = np.ones(size)

    def _grow(self, rows: int) -> None:
        size = len(self.mean_next)
        if rows <= size:
            return
        new = max(rows, 2 * size)
        for name, fill in (("mean_next", 0.0), ("sd_next", 1.0), ("mean_p", 0.0), ("sd_p", 1.0)):
            old = getattr(self, name)
            grown = np.full(new, fill)
            grown[:size] = old
            setattr(self, name, grown)

    def _filter(self, node: NodeStats) -> State:
        pr = self.prior
        if node.parent_id is None:
            p, m, a, b, c = 0.5, 0.0, 0.25, 0.0, pr.m_sd**2
        else:
            pp, mp, ap, bp, cp = self.state[node.parent_id]
            p, m = pp + mp, pr.rho * mp
            a, b, c = ap + 2 * bp + cp + pr.step**2, pr.rho * (bp + cp), pr.rho**2 * cp + pr.m_sd**2 * (1 - pr.rho**2)
        seen = _observation(node, pr.floor)
        if seen is not None:  # own results observe p
            y, r = seen
            k1, k2 = a / (a + r), b / (a + r)
            p, m, (a, b, c) = p + k1 * (y - p), m + k2 * (y - p), (a - k1 * a, b - k1 * b, c - k2 * b)
        return p, m, a, b, c

    def _score(self, node_id: int) -> None:
        """The node scored: its state, with each evaluated child's results observing p + m
        (they inform its own skill too: a child's skill is its parent's plus a step)."""
        p, m, a, b, c = self.state[node_id]
        for child in self.children.get(node_id, ()):
            seen = _observation(self.stats[child], self.prior.floor)
            if seen is None:
                continue
            y, r = seen
            h1, h2 = a + b, b + c
            s = a + 2 * b + c + r + self.prior.step**2
            k1, k2 = h1 / s, h2 / s
            p, m, (a, b, c) = p + k1 * (y - p - m), m + k2 * (y - p - m), (a - k1 * h1, b - k1 * h2, c - k2 * h2)
        row = self.row[node_id]
        self.mean_next[row], self.sd_next[row] = p + m, math.sqrt(max(a + 2 * b + c, 1e-12))
        self.mean_p[row], self.sd_p[row] = p, math.sqrt(max(a, 1e-12))

    def update(self, view: View) -> None:
        """Bring the estimates up to `view` (the first call filters every node). A node
        whose NodeStats object changed only in its clade sums or child count (every
        ancestor's does, on each result) keeps its state."""
        dirty: set[int] = set()
        rescore: set[int] = set()
        for i, node in view.nodes.items():
            old = self.stats.get(i)
            if old is node:
                continue
            self.stats[i] = node
            if old is None:
                self.row[i] = len(self.row)
                if node.parent_id is not None:
                    self.children.setdefault(node.parent_id, []).append(i)
            elif (old.successes, old.failures, old.status) == (node.successes, node.failures, node.status):
                continue
            dirty.add(i)
            rescore.add(i)
            if node.parent_id is not None:
                rescore.add(node.parent_id)
        if not dirty:
            return
        self._grow(len(self.row))
        stack = list(dirty)
        while stack:  # a refiltered node's whole subtree follows it
            for child in self.children.get(stack.pop(), ()):
                if child not in dirty:
                    dirty.add(child)
                    rescore.add(child)
                    stack.append(child)
        for i in sorted(dirty):  # ids grow down the tree: parents before children
            self.state[i] = self._filter(self.stats[i])
        for i in rescore:
            self._score(i)

    def rows(self, ids: list[int]) -> np.ndarray:
        return np.fromiter(map(self.row.__getitem__, ids), dtype=np.int64, count=len(ids))


@dataclass(frozen=True)
class Plan:
    """A planner's next step: expand `expand`, or evaluate `evaluate` (the policy picks the
    task); neither, to leave the step to the policy's own rule."""

    expand: int | None = None
    evaluate: int | None = None


def thompson_wins(mu: np.ndarray, sd: np.ndarray, draws: int, shortlist: int, gen) -> tuple[np.ndarray, np.ndarray]:
    """Indices into mu, most Thompson wins first, and their wins out of `draws` joint draws
    from N(mu, sd). Only the `shortlist` largest mu + 3 sd can win in practice, so only
    they are drawn (a decision at 100k nodes stays in milliseconds)."""
    cand = np.argpartition(-(mu + 3 * sd), shortlist)[:shortlist] if len(mu) > shortlist else np.arange(len(mu))
    cand = np.sort(cand)  # a fixed order, so the same seed gives the same draws
    draw = mu[cand] + sd[cand] * gen.standard_normal((draws, len(cand)))
    wins = np.bincount(np.argmax(draw, axis=1), minlength=len(cand))
    order = np.argsort(-wins, kind="stable")
    return cand[order], wins[order]
