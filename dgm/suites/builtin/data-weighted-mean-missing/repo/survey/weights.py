"""Weighted estimators that skip unanswered questions.

A respondent who did not answer a question (value ``None``) does not take part
in any estimate for that question: neither their value nor their weight is
used.
"""

import math
from typing import Optional, Sequence

Values = Sequence[Optional[float]]


def _answered(values: Values, weights: Sequence[float]) -> list[tuple[float, float]]:
    if len(values) != len(weights):
        raise ValueError("values and weights must have the same length")
    if any(w < 0 for w in weights):
        raise ValueError("weights must be non-negative")
    return [(v, w) for v, w in zip(values, weights) if v is not None]


def mean(values: Values) -> Optional[float]:
    """Unweighted mean of the answered values, or None if nobody answered."""
    answered = [v for v in values if v is not None]
    if not answered:
        return None
    return math.fsum(answered) / len(answered)


def weighted_total(values: Values, weights: Sequence[float]) -> float:
    """Sum of value * weight over answered values (a population total estimate)."""
    return math.fsum(v * w for v, w in _answered(values, weights))


def weighted_mean(values: Values, weights: Sequence[float]) -> Optional[float]:
    """Weighted mean of the answered values, or None if nobody answered."""
    pairs = _answered(values, weights)
    if not pairs:
        return None
    total_weight = math.fsum(weights)
    if total_weight == 0:
        return None
    return math.fsum(v * w for v, w in pairs) / total_weight


def effective_sample_size(values: Values, weights: Sequence[float]) -> float:
    """Kish's effective sample size of the answered values: (sum w)^2 / sum w^2."""
    pairs = _answered(values, weights)
    squares = math.fsum(w * w for _, w in pairs)
    if squares == 0:
        return 0.0
    return math.fsum(w for _, w in pairs) ** 2 / squares
