import pytest

from ratelimit import KeyedLimiter, ManualClock, RateLimitExceeded, TokenBucket, rate_limited
from ratelimit.bucket import make_bucket


def test_bucket_starts_full_and_drains():
    clock = ManualClock()
    bucket = TokenBucket(rate=1, capacity=3, clock=clock)
    assert bucket.available() == 3
    assert [bucket.try_consume() for _ in range(4)] == [True, True, True, False]


def test_bucket_refills_whole_seconds():
    clock = ManualClock()
    bucket = TokenBucket(rate=2, capacity=4, clock=clock)
    for _ in range(4):
        bucket.try_consume()
    clock.advance(1)
    assert bucket.available() == 2
    clock.advance(100)
    assert bucket.available() == 4
    assert bucket.full


def test_bucket_validation():
    with pytest.raises(ValueError):
        TokenBucket(rate=0, capacity=1)
    bucket = TokenBucket(rate=1, capacity=2, clock=ManualClock())
    with pytest.raises(ValueError):
        bucket.try_consume(3)


def test_wait_time_when_empty():
    clock = ManualClock()
    bucket = TokenBucket(rate=2, capacity=1, clock=clock)
    assert bucket.wait_time() == 0.0
    bucket.try_consume()
    assert bucket.wait_time() == 0.5


def test_make_bucket_default_capacity():
    assert make_bucket(5, clock=ManualClock()).capacity == 5
    assert make_bucket(0.2, clock=ManualClock()).capacity == 1.0


def test_manual_clock():
    clock = ManualClock(start=10)
    clock.advance(2.5)
    assert clock.now() == 12.5
    with pytest.raises(ValueError):
        clock.advance(-1)


def test_keyed_limiter_burst_per_key():
    limiter = KeyedLimiter(rate=1, capacity=2, clock=ManualClock())
    assert [limiter.allow("alice") for _ in range(3)] == [True, True, False]
    assert limiter.allow("bob")
    assert len(limiter) == 2


def test_decorator_blocks_after_burst():
    limiter = KeyedLimiter(rate=1, capacity=1, clock=ManualClock())

    @rate_limited(limiter, key_func=lambda user, item: user)
    def fetch(user, item):
        return f"{user}:{item}"

    assert fetch("u1", "a") == "u1:a"
    with pytest.raises(RateLimitExceeded):
        fetch("u1", "b")
    assert fetch("u2", "b") == "u2:b"
