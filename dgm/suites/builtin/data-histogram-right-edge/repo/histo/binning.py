"""Counting values into equal-width bins.

Bins are half-open ``[left, right)`` except the last one, which is closed
``[left, right]`` so that the upper end of the range is counted.  This is the
same convention as numpy's ``histogram``.
"""

from typing import Iterable, Optional


def bin_edges(lo: float, hi: float, bins: int) -> list[float]:
    """`bins + 1` equally spaced edges from `lo` to `hi`."""
    if bins < 1:
        raise ValueError("bins must be a positive integer")
    if hi < lo:
        raise ValueError(f"empty range: {lo} > {hi}")
    width = (hi - lo) / bins
    return [lo + i * width for i in range(bins)] + [hi]


def histogram(
    values: Iterable[float],
    bins: int = 10,
    range: Optional[tuple[float, float]] = None,
) -> tuple[list[int], list[float]]:
    """Count `values` into `bins` equal-width bins.

    Returns ``(counts, edges)`` where ``len(edges) == bins + 1``.  Without an
    explicit `range` the bins span the minimum to the maximum of the data;
    with one, values outside ``[range[0], range[1]]`` are ignored.  If all
    values are equal the range is widened by 0.5 on each side.
    """
    data = [float(v) for v in values]
    if range is not None:
        lo, hi = float(range[0]), float(range[1])
    elif data:
        lo, hi = min(data), max(data)
    else:
        lo, hi = 0.0, 1.0
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    edges = bin_edges(lo, hi, bins)
    width = (hi - lo) / bins
    counts = [0] * bins
    for v in data:
        if v < lo or v >= hi:
            continue
        # float rounding can push a value sitting on an edge one bin too far
        index = min(int((v - lo) / width), bins - 1)
        counts[index] += 1
    return counts, edges
