"""Token-bucket rate limiting with injectable clocks."""

from .bucket import TokenBucket
from .clock import ManualClock, MonotonicClock
from .limiter import KeyedLimiter, RateLimitExceeded, rate_limited

__all__ = ["KeyedLimiter", "ManualClock", "MonotonicClock", "RateLimitExceeded", "TokenBucket", "rate_limited"]
