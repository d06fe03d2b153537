"""Reductions used by rolling windows.  Each takes a non-empty list of floats."""

import math
from typing import Optional


def total(values: list[float]) -> float:
    return math.fsum(values)


def mean(values: list[float]) -> float:
    return math.fsum(values) / len(values)


def minimum(values: list[float]) -> float:
    return min(values)


def maximum(values: list[float]) -> float:
    return max(values)


def std(values: list[float]) -> Optional[float]:
    """Sample standard deviation; None for fewer than two values."""
    if len(values) < 2:
        return None
    m = mean(values)
    return math.sqrt(math.fsum((x - m) ** 2 for x in values) / (len(values) - 1))
