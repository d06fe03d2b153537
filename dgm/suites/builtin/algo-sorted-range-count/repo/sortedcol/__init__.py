"""A sorted list container that keeps duplicates, plus binary-search helpers."""

from .search import lower_bound, upper_bound
from .sortedlist import SortedList
from .summary import median, percentile_rank

__all__ = ["SortedList", "lower_bound", "median", "percentile_rank", "upper_bound"]
