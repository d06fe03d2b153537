"""The oracle selector: it sees the hidden truth, so it marks the limit to measure
against. It expands the valid agent whose child is expected to be best: skill + m, or
what `value` gives (benchmarks/bench_gap_bounds.py: exact skill alone, or skill + m seen
through an error)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import ClassVar

from ..engine.view import View
from .landscape import World


class OracleSelector:
    name: ClassVar[str] = "oracle"

    def __init__(self, world: World, value: Callable[[int], float] | None = None):
        self.value = value or (lambda i: world.agents[i].skill + world.m(i))

    def select(self, view: View, eligible: Sequence[int], k: int, rng: random.Random) -> list[int]:
        best = max(eligible, key=lambda i: (self.value(i), -i))
        return [best] * k
