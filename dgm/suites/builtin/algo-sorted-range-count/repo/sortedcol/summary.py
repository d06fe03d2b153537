"""Order statistics on a SortedList."""

from .search import lower_bound
from .sortedlist import SortedList


def median(values: SortedList) -> float:
    """Median of a non-empty SortedList (mean of the middle two for even sizes)."""
    n = len(values)
    if n == 0:
        raise ValueError("median of an empty list")
    mid = n // 2
    if n % 2:
        return values[mid]
    return (values[mid - 1] + values[mid]) / 2


def percentile_rank(values: SortedList, value) -> float:
    """Percentage of values strictly below `value` (0.0 for an empty list)."""
    if not len(values):
        return 0.0
    return 100.0 * lower_bound(values, value) / len(values)
