"""A one-dimensional labelled series of floats (None marks a missing value)."""

from typing import Callable, Hashable, Iterable, Optional, Sequence

from . import funcs
from .window import rolling_apply


class Series:
    """Values with an index of labels (by default 0..n-1)."""

    def __init__(self, values: Iterable[Optional[float]], index: Optional[Sequence[Hashable]] = None):
        self.values = [None if v is None else float(v) for v in values]
        self.index = list(range(len(self.values))) if index is None else list(index)
        if len(self.index) != len(self.values):
            raise ValueError("index and values must have the same length")

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, label):
        return self.values[self.index.index(label)]

    def __repr__(self) -> str:
        pairs = ", ".join(f"{i!r}: {v!r}" for i, v in zip(self.index, self.values))
        return f"Series({{{pairs}}})"

    def to_list(self) -> list[Optional[float]]:
        return list(self.values)

    def items(self):
        return zip(self.index, self.values)

    def dropna(self) -> "Series":
        kept = [(i, v) for i, v in self.items() if v is not None]
        return Series([v for _, v in kept], [i for i, _ in kept])

    def fillna(self, value: float) -> "Series":
        return Series([value if v is None else v for v in self.values], self.index)

    def rolling(self, window: int) -> "Rolling":
        """Trailing rolling windows of `window` values, as in pandas."""
        return Rolling(self, window)


class Rolling:
    """Deferred rolling computation: call one of the reductions to get a Series."""

    def __init__(self, series: Series, window: int):
        if window < 1:
            raise ValueError(f"window must be at least 1, got {window}")
        self.series = series
        self.window = window

    def _apply(self, func: Callable[[list[float]], Optional[float]]) -> Series:
        return Series(rolling_apply(self.series.values, self.window, func), self.series.index)

    def sum(self) -> Series:
        return self._apply(funcs.total)

    def mean(self) -> Series:
        return self._apply(funcs.mean)

    def min(self) -> Series:
        return self._apply(funcs.minimum)

    def max(self) -> Series:
        return self._apply(funcs.maximum)

    def std(self) -> Series:
        return self._apply(funcs.std)
