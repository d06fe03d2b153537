"""Per-key rate limiting."""

import functools
from typing import Callable, Dict, Hashable

from .bucket import TokenBucket
from .clock import MonotonicClock


class RateLimitExceeded(Exception):
    """Raised by @rate_limited when a call is over the limit."""

    def __init__(self, key: Hashable, retry_after: float) -> None:
        self.key = key
        self.retry_after = retry_after
        super().__init__(f"rate limit exceeded for {key!r}; retry in {retry_after:.2f}s")


class KeyedLimiter:
    """Independent token buckets per key, created on first use.

    All buckets share the limiter's clock.
    """

    def __init__(self, rate: float, capacity: float, clock=None) -> None:
        self.rate = rate
        self.capacity = capacity
        self.clock = clock if clock is not None else MonotonicClock()
        self._buckets: Dict[Hashable, TokenBucket] = {}

    def _bucket(self, key: Hashable) -> TokenBucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.capacity)
        return bucket

    def allow(self, key: Hashable, cost: float = 1) -> bool:
        """Whether a request of `cost` tokens from `key` may proceed now."""
        return self._bucket(key).try_consume(cost)

    def retry_after(self, key: Hashable, cost: float = 1) -> float:
        """Seconds `key` must wait before a request of `cost` would be allowed."""
        return self._bucket(key).wait_time(cost)

    def prune(self) -> int:
        """Forget keys whose buckets are full again (idle); return how many."""
        idle = [key for key, bucket in self._buckets.items() if bucket.full]
        for key in idle:
            del self._buckets[key]
        return len(idle)

    def __len__(self) -> int:
        return len(self._buckets)


def rate_limited(limiter: KeyedLimiter, key_func: Callable[..., Hashable]) -> Callable:
    """Decorator: each call costs one token from the bucket of key_func(*args, **kwargs)."""

    def decorate(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            key = key_func(*args, **kwargs)
            if not limiter.allow(key):
                raise RateLimitExceeded(key, limiter.retry_after(key))
            return func(*args, **kwargs)

        return wrapper

    return decorate
