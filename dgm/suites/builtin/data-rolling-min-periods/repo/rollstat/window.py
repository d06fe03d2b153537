"""Trailing windows over a list of values."""

from typing import Callable, Iterator, Optional, Sequence


def trailing_windows(values: Sequence, size: int) -> Iterator[list]:
    """For each position i, the values from i - size + 1 to i (fewer at the start)."""
    if size < 1:
        raise ValueError(f"window size must be at least 1, got {size}")
    for i in range(len(values)):
        yield list(values[max(0, i - size + 1) : i + 1])


def rolling_apply(
    values: Sequence[Optional[float]],
    size: int,
    func: Callable[[list[float]], Optional[float]],
) -> list[Optional[float]]:
    """Apply `func` to each trailing window of `size` values.

    Positions whose window is not yet full give None.
    """
    out: list[Optional[float]] = []
    for window in trailing_windows(values, size):
        out.append(func(window) if len(window) == size else None)
    return out
