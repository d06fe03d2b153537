"""The oracle selector: it sees the hidden truth, so it marks the limit to measure
against. It expands the valid agent whose child is expected to be best: skill + m."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from ..engine.view import View
from .landscape import World


class OracleSelector:
    name: ClassVar[str] = "oracle"

    def __init__(self, world: World):
        self.world = world

    def select(self, view: View, eligible: Sequence[int], k: int, rng: random.Random) -> list[int]:
        best = max(eligible, key=lambda i: (self.world.agents[i].skill + self.world.m(i), -i))
        return [best] * k
