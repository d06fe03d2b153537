"""Counters describing how well a cache is doing."""

from dataclasses import dataclass


@dataclass
class CacheStats:
    """Hit, miss and eviction counters for one cache."""

    hits: int = 0
    misses: int = 0
    evictions: int = 0

    @property
    def lookups(self) -> int:
        return self.hits + self.misses

    @property
    def hit_ratio(self) -> float:
        """Fraction of lookups that were hits (0.0 when nothing was looked up)."""
        if not self.lookups:
            return 0.0
        return self.hits / self.lookups

    def reset(self) -> None:
        self.hits = self.misses = self.evictions = 0
