"""Memoizing decorator backed by an LRUCache."""

import functools
from typing import Any, Callable

from .lru import LRUCache

_SENTINEL = object()


def make_key(args: tuple, kwargs: dict) -> tuple:
    """Build a hashable cache key from call arguments (keyword order ignored)."""
    if not kwargs:
        return args
    return args + (_SENTINEL,) + tuple(sorted(kwargs.items()))


def lru_memoize(maxsize: int = 128) -> Callable:
    """Decorator caching up to `maxsize` results of the wrapped function.

    The wrapper exposes its cache as `wrapper.cache`.
    """

    def decorate(func: Callable) -> Callable:
        cache = LRUCache(maxsize)
        missing = object()

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            key = make_key(args, kwargs)
            result = cache.get(key, missing)
            if result is missing:
                result = func(*args, **kwargs)
                cache.put(key, result)
            return result

        wrapper.cache = cache
        return wrapper

    return decorate
