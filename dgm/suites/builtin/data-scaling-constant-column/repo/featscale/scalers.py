"""Standardisation and min-max scaling.

The scalers follow scikit-learn's conventions: ``StandardScaler`` uses the
population standard deviation, and both learn their parameters with ``fit``
and apply them with ``transform``.
"""

import statistics
from typing import Sequence

from .table import Table, columns, rows


def zscore(values: Sequence[float]) -> list[float]:
    """Standard scores: (x - mean) / population standard deviation."""
    if not values:
        return []
    mu = statistics.fmean(values)
    sigma = statistics.pstdev(values)
    return [(x - mu) / sigma for x in values]


def minmax(values: Sequence[float], feature_range: tuple[float, float] = (0.0, 1.0)) -> list[float]:
    """Linearly map `values` so that min -> feature_range[0] and max -> feature_range[1]."""
    if not values:
        return []
    lo, hi = feature_range
    vmin, vmax = min(values), max(values)
    scale = (hi - lo) / (vmax - vmin)
    return [lo + (x - vmin) * scale for x in values]


class StandardScaler:
    """Column-wise standardisation of a table (list of rows)."""

    def __init__(self):
        self.mean_: list[float] = []
        self.scale_: list[float] = []

    def fit(self, table: Sequence[Sequence[float]]) -> "StandardScaler":
        cols = columns(table)
        if not cols:
            raise ValueError("cannot fit on an empty table")
        self.mean_ = [statistics.fmean(c) for c in cols]
        self.scale_ = [statistics.pstdev(c) for c in cols]
        return self

    def transform(self, table: Sequence[Sequence[float]]) -> Table:
        cols = columns(table)
        if len(cols) != len(self.mean_):
            raise ValueError(f"expected {len(self.mean_)} columns, got {len(cols)}")
        return rows([[(x - m) / s for x in c] for c, m, s in zip(cols, self.mean_, self.scale_)])

    def fit_transform(self, table: Sequence[Sequence[float]]) -> Table:
        return self.fit(table).transform(table)

    def inverse_transform(self, table: Sequence[Sequence[float]]) -> Table:
        cols = columns(table)
        return rows([[x * s + m for x in c] for c, m, s in zip(cols, self.mean_, self.scale_)])


class MinMaxScaler:
    """Column-wise min-max scaling of a table (list of rows)."""

    def __init__(self, feature_range: tuple[float, float] = (0.0, 1.0)):
        self.feature_range = feature_range
        self.min_: list[float] = []
        self.scale_: list[float] = []

    def fit(self, table: Sequence[Sequence[float]]) -> "MinMaxScaler":
        cols = columns(table)
        if not cols:
            raise ValueError("cannot fit on an empty table")
        lo, hi = self.feature_range
        self.min_ = [min(c) for c in cols]
        self.scale_ = [(hi - lo) / (max(c) - min(c)) for c in cols]
        return self

    def transform(self, table: Sequence[Sequence[float]]) -> Table:
        cols = columns(table)
        if len(cols) != len(self.min_):
            raise ValueError(f"expected {len(self.min_)} columns, got {len(cols)}")
        lo = self.feature_range[0]
        return rows([[lo + (x - m) * s for x in c] for c, m, s in zip(cols, self.min_, self.scale_)])

    def fit_transform(self, table: Sequence[Sequence[float]]) -> Table:
        return self.fit(table).transform(table)
