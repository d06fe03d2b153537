"""The token bucket algorithm."""

from typing import Optional

from .clock import MonotonicClock


class TokenBucket:
    """Allows bursts of up to `capacity` requests and a sustained `rate`
    requests per second.

    Tokens accumulate continuously: after t seconds, ``t * rate`` tokens
    (fractions included) have been added, never exceeding `capacity`. The
    bucket starts full.
    """

    def __init__(self, rate: float, capacity: float, clock=None) -> None:
        if rate <= 0 or capacity <= 0:
            raise ValueError("rate and capacity must be positive")
        self.rate = rate
        self.capacity = capacity
        self._clock = clock if clock is not None else MonotonicClock()
        self._tokens = float(capacity)
        self._last = self._clock.now()

    def _refill(self) -> None:
        now = self._clock.now()
        elapsed = now - self._last
        if elapsed > 0:
            self._tokens = min(self.capacity, int(self._tokens + elapsed * self.rate))
        self._last = now

    def available(self) -> int:
        """Whole tokens that could be consumed right now."""
        self._refill()
        return int(self._tokens)

    def try_consume(self, tokens: float = 1) -> bool:
        """Take `tokens` if that many are available; return whether it did."""
        if tokens > self.capacity:
            raise ValueError(f"cannot consume {tokens} tokens from a bucket of capacity {self.capacity}")
        self._refill()
        if self._tokens >= tokens:
            self._tokens -= tokens
            return True
        return False

    def wait_time(self, tokens: float = 1) -> float:
        """Seconds until `tokens` tokens will be available (0.0 if they are now)."""
        self._refill()
        missing = tokens - self._tokens
        return max(0.0, missing / self.rate)

    @property
    def full(self) -> bool:
        self._refill()
        return self._tokens >= self.capacity

    def __repr__(self) -> str:
        return f"TokenBucket(rate={self.rate}, capacity={self.capacity}, tokens={self._tokens:.2f})"


def make_bucket(rate: float, capacity: Optional[float] = None, clock=None) -> TokenBucket:
    """Bucket with `capacity` defaulting to one second's worth of tokens (at least 1)."""
    if capacity is None:
        capacity = max(1.0, rate)
    return TokenBucket(rate, capacity, clock=clock)
