"""Order statistics.

Percentiles use linear interpolation between the closest ranks, the same
convention as numpy's default ``percentile`` and Excel's ``PERCENTILE.INC``:
the smallest value is the 0th percentile, the largest the 100th, and values in
between are interpolated along the sorted data.
"""

import math
from typing import Iterable


def percentile(data: Iterable[float], p: float) -> float:
    """The `p`-th percentile (0 <= p <= 100) of `data`."""
    values = sorted(float(x) for x in data)
    if not values:
        raise ValueError("percentile of empty data")
    if not 0 <= p <= 100:
        raise ValueError(f"percentile must be between 0 and 100, got {p}")
    rank = p / 100 * len(values)
    low = min(math.floor(rank), len(values) - 1)
    high = min(low + 1, len(values) - 1)
    fraction = rank - low
    return values[low] + (values[high] - values[low]) * fraction


def median(data: Iterable[float]) -> float:
    """The middle value of `data` (the 50th percentile)."""
    return percentile(data, 50)


def quartiles(data: Iterable[float]) -> tuple[float, float, float]:
    """The first, second and third quartiles of `data`."""
    values = list(data)
    return percentile(values, 25), percentile(values, 50), percentile(values, 75)


def iqr(data: Iterable[float]) -> float:
    """Interquartile range: third quartile minus first quartile."""
    q1, _, q3 = quartiles(data)
    return q3 - q1
