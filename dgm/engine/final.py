"""Choosing the final agent: separate from parent selection, and noise-aware.

mean      the highest own resolve rate
lcb       the highest Wilson lower bound (95%) of the own resolve rate
quantile  the highest epsilon-quantile of the Beta(1 + s, 1 + f) posterior (as HGM)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

from .view import NodeStats, View

Z95 = 1.959963984540054


def wilson_lower(successes: int, n: int, z: float = Z95) -> float:
    if n == 0:
        return 0.0
    p = successes / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - margin) / (1 + z * z / n)


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    upper = 1 - wilson_lower(n - successes, n, z)
    return wilson_lower(successes, n, z), upper


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (Lentz's method)."""
    tiny, qab, qap, qam = 1e-300, a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1 + aa * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-12:
            break
    return h


def beta_cdf(x: float, a: float, b: float) -> float:
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


@functools.lru_cache(maxsize=1 << 16)  # (s, f) pairs repeat a lot across nodes and decisions
def beta_quantile(q: float, a: float, b: float) -> float:
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if beta_cdf(mid, a, b) < q else (lo, mid)
    return (lo + hi) / 2


def quantile_score(node: NodeStats, epsilon: float = 0.1) -> float:
    return beta_quantile(epsilon, 1 + node.successes, 1 + node.failures)


RULES: dict[str, Callable[[NodeStats], float]] = {
    "mean": lambda n: n.mean,
    "lcb": lambda n: wilson_lower(n.successes, n.n),
    "quantile": quantile_score,
}
RULE_NAMES = {  # how a page or a table names each rule's value
    "mean": "own resolve rate",
    "lcb": "Wilson lower bound (95%)",
    "quantile": "10% quantile of the Beta posterior",
}


def best(view: View, rule: str = "quantile") -> int | None:
    """The final agent by `rule` among valid nodes with at least one result (ties: more
    evaluations, then the older node)."""
    score = RULES[rule]
    candidates = [view.nodes[i] for i in view.valid() if view.nodes[i].n]
    if not candidates:
        return None
    return max(candidates, key=lambda n: (score(n), n.n, -n.id)).id


class FinalPick:
    """The final rule's pick, kept current node by node: `best(view, rule)` over the whole
    view after every result costs O(nodes). A node's rule score depends on its own results
    alone, so only the node just changed can take or lose the lead. Agrees with `best`
    after every `update` (same ties: more evaluations, then the older node)."""

    def __init__(self, rule: str = "quantile"):
        self.score = RULES[rule]
        self.keys: dict[int, tuple[float, int, int]] = {}
        self.best: int | None = None

    def update(self, node: NodeStats) -> None:
        """After `node`'s results or status changed."""
        if node.status == "valid" and node.n:
            self.keys[node.id] = (self.score(node), node.n, -node.id)
        else:
            self.keys.pop(node.id, None)
        if self.best == node.id or self.best is None:
            self.best = max(self.keys, key=self.keys.__getitem__, default=None)
        elif node.id in self.keys and self.keys[node.id] > self.keys[self.best]:
            self.best = node.id
