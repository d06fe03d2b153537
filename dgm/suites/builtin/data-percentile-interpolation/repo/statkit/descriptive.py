"""Moments of a sample: mean, variance and standard deviation."""

import math
from typing import Iterable


def _as_list(data: Iterable[float]) -> list[float]:
    values = [float(x) for x in data]
    if not values:
        raise ValueError("at least one data point is required")
    return values


def mean(data: Iterable[float]) -> float:
    """Arithmetic mean of `data`."""
    values = _as_list(data)
    return math.fsum(values) / len(values)


def variance(data: Iterable[float], ddof: int = 1) -> float:
    """Variance of `data`.

    `ddof` is the delta degrees of freedom: 1 (the default) gives the sample
    variance, 0 the population variance.
    """
    values = _as_list(data)
    if len(values) <= ddof:
        raise ValueError(f"need more than {ddof} data points for ddof={ddof}")
    m = math.fsum(values) / len(values)
    return math.fsum((x - m) ** 2 for x in values) / (len(values) - ddof)


def stdev(data: Iterable[float], ddof: int = 1) -> float:
    """Standard deviation of `data` (square root of `variance`)."""
    return math.sqrt(variance(data, ddof=ddof))
