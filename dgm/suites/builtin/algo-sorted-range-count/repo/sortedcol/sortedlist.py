"""SortedList: a list that stays sorted as values are added and removed."""

from typing import Any, Iterable, Iterator, List

from .search import lower_bound, upper_bound


class SortedList:
    """Sorted sequence of comparable values; duplicates are kept.

    Range queries take inclusive bounds: ``irange(lo, hi)`` yields every value
    v with ``lo <= v <= hi`` and ``count_range(lo, hi)`` counts the same values.
    """

    def __init__(self, values: Iterable[Any] = ()):
        self._items: List[Any] = sorted(values)

    def add(self, value: Any) -> None:
        """Insert `value`, after any equal values already present."""
        self._items.insert(upper_bound(self._items, value), value)

    def update(self, values: Iterable[Any]) -> None:
        for value in values:
            self.add(value)

    def remove(self, value: Any) -> None:
        """Remove one occurrence of `value`; ValueError if absent."""
        i = lower_bound(self._items, value)
        if i == len(self._items) or self._items[i] != value:
            raise ValueError(f"{value!r} not in list")
        del self._items[i]

    def discard(self, value: Any) -> bool:
        """Remove one occurrence of `value` if present; return whether it was."""
        try:
            self.remove(value)
        except ValueError:
            return False
        return True

    def count(self, value: Any) -> int:
        """Number of occurrences of `value`."""
        return upper_bound(self._items, value) - lower_bound(self._items, value)

    def index(self, value: Any) -> int:
        """Position of the first occurrence of `value`."""
        i = lower_bound(self._items, value)
        if i == len(self._items) or self._items[i] != value:
            raise ValueError(f"{value!r} not in list")
        return i

    def irange(self, lo: Any, hi: Any) -> Iterator[Any]:
        """Iterate over the values v with lo <= v <= hi, in order."""
        start = lower_bound(self._items, lo)
        stop = upper_bound(self._items, hi)
        return iter(self._items[start:stop])

    def count_range(self, lo: Any, hi: Any) -> int:
        """Number of values v with lo <= v <= hi."""
        if hi < lo:
            return 0
        return lower_bound(self._items, hi) - lower_bound(self._items, lo)

    def __contains__(self, value: Any) -> bool:
        return self.count(value) > 0

    def __getitem__(self, index):
        return self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._items)

    def __repr__(self) -> str:
        return f"SortedList({self._items!r})"
