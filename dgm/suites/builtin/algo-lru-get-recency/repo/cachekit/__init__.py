"""In-process caching helpers."""

from .lru import LRUCache
from .memoize import lru_memoize
from .stats import CacheStats

__all__ = ["CacheStats", "LRUCache", "lru_memoize"]
