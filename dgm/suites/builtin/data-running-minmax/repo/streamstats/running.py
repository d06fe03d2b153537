"""Single-pass summary statistics (Welford's algorithm).

A ``RunningStats`` can be fed one value at a time, and trackers built on
different shards of a stream can be merged; the merged tracker reports the same
statistics as one tracker that saw every value.
"""

import math
from typing import Iterable, Optional


class RunningStats:
    """Count, mean, variance, minimum and maximum of the values seen so far.

    ``min`` and ``max`` are None until the first value arrives; ``mean`` is
    None as well, and ``variance`` needs at least two values.
    """

    def __init__(self):
        self.count = 0
        self._mean = 0.0
        self._m2 = 0.0
        self.min: Optional[float] = 0.0
        self.max: Optional[float] = 0.0

    @classmethod
    def from_values(cls, values: Iterable[float]) -> "RunningStats":
        stats = cls()
        stats.extend(values)
        return stats

    def update(self, x: float) -> None:
        """Add one value."""
        x = float(x)
        self.count += 1
        delta = x - self._mean
        self._mean += delta / self.count
        self._m2 += delta * (x - self._mean)
        self.min = min(self.min, x)
        self.max = max(self.max, x)

    def extend(self, values: Iterable[float]) -> None:
        """Add every value of an iterable."""
        for x in values:
            self.update(x)

    def merge(self, other: "RunningStats") -> "RunningStats":
        """A new tracker equivalent to having seen both streams (Chan et al.)."""
        merged = RunningStats()
        merged.count = self.count + other.count
        if merged.count == 0:
            return merged
        delta = other._mean - self._mean
        merged._mean = self._mean + delta * other.count / merged.count
        merged._m2 = self._m2 + other._m2 + delta**2 * self.count * other.count / merged.count
        merged.min = min(self.min, other.min)
        merged.max = max(self.max, other.max)
        return merged

    __add__ = merge

    @property
    def mean(self) -> Optional[float]:
        return self._mean if self.count else None

    @property
    def variance(self) -> Optional[float]:
        """Sample variance (n - 1 in the denominator)."""
        return self._m2 / (self.count - 1) if self.count > 1 else None

    @property
    def stdev(self) -> Optional[float]:
        var = self.variance
        return None if var is None else math.sqrt(var)

    def as_dict(self) -> dict:
        return {
            "count": self.count,
            "mean": self.mean,
            "stdev": self.stdev,
            "min": self.min,
            "max": self.max,
        }
