"""Sliding-window extremes in O(n) with a monotonic deque."""

from collections import deque
from typing import Callable, Iterable, Iterator


def _sliding(values: Iterable[float], size: int, better: Callable[[float, float], bool]) -> Iterator[float]:
    if size < 1:
        raise ValueError("window size must be at least 1")
    window: deque = deque()  # (index, value), values monotonic
    for i, x in enumerate(values):
        while window and not better(window[-1][1], x):
            window.pop()
        window.append((i, x))
        if window[0][0] <= i - size:
            window.popleft()
        if i >= size - 1:
            yield window[0][1]


def sliding_max(values: Iterable[float], size: int) -> list[float]:
    """Maximum of each full window of `size` consecutive values."""
    return list(_sliding(values, size, lambda kept, new: kept > new))


def sliding_min(values: Iterable[float], size: int) -> list[float]:
    """Minimum of each full window of `size` consecutive values."""
    return list(_sliding(values, size, lambda kept, new: kept < new))
