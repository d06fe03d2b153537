"""Daily resampling of readings."""

import math
from datetime import date, timezone, tzinfo
from typing import Callable, Iterable, Optional

from .calendar import local_date
from .points import Point

AGGREGATIONS: dict[str, Callable[[list[float]], float]] = {
    "mean": lambda vs: math.fsum(vs) / len(vs),
    "sum": math.fsum,
    "min": min,
    "max": max,
    "count": len,
    "last": lambda vs: vs[-1],
}


def resample_daily(
    points: Iterable[Point],
    how: str = "mean",
    tz: tzinfo = timezone.utc,
) -> list[tuple[date, Optional[float]]]:
    """Aggregate readings per calendar day in timezone `tz`.

    Returns ``(day, value)`` pairs in date order, covering every day from the
    first reading's day to the last reading's day.  ``last`` is the latest
    reading of the day.
    """
    try:
        aggregate = AGGREGATIONS[how]
    except KeyError:
        raise ValueError(f"unknown aggregation {how!r}; choose from {sorted(AGGREGATIONS)}") from None
    buckets: dict[date, list[float]] = {}
    for point in sorted(points, key=lambda p: p.ts):
        buckets.setdefault(local_date(point.ts, tz), []).append(point.value)
    return [(day, aggregate(buckets[day])) for day in sorted(buckets)]
