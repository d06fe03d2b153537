"""A bounded mapping that evicts the least recently used entry."""

from collections import OrderedDict
from typing import Any, Hashable, Iterator

from .stats import CacheStats

_MISSING = object()


class LRUCache:
    """Mapping with at most `maxsize` entries.

    Both `get` (on a hit) and `put` mark an entry as the most recently used.
    When a `put` would exceed `maxsize`, the least recently used entry is
    evicted. `peek` and `in` look at an entry without changing its recency.
    """

    def __init__(self, maxsize: int = 128):
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self.maxsize = maxsize
        self.stats = CacheStats()
        self._data: "OrderedDict[Hashable, Any]" = OrderedDict()

    def get(self, key: Hashable, default: Any = None) -> Any:
        """Return the value for `key` (marking it recently used), or `default`."""
        value = self._data.get(key, _MISSING)
        if value is _MISSING:
            self.stats.misses += 1
            return default
        self.stats.hits += 1
        return value

    def peek(self, key: Hashable, default: Any = None) -> Any:
        """Return the value for `key` without touching recency or statistics."""
        return self._data.get(key, default)

    def put(self, key: Hashable, value: Any) -> None:
        """Insert or replace `key`, evicting the least recently used entry if full."""
        if key in self._data:
            self._data.move_to_end(key)
        self._data[key] = value
        while len(self._data) > self.maxsize:
            self._data.popitem(last=False)
            self.stats.evictions += 1

    def pop(self, key: Hashable, default: Any = _MISSING) -> Any:
        """Remove `key` and return its value."""
        if default is _MISSING:
            return self._data.pop(key)
        return self._data.pop(key, default)

    def clear(self) -> None:
        self._data.clear()

    def keys(self) -> list:
        """Keys from least to most recently used."""
        return list(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self.keys())

    def __repr__(self) -> str:
        return f"LRUCache(maxsize={self.maxsize}, size={len(self)})"
