import pytest

from ratelimit import KeyedLimiter, ManualClock, RateLimitExceeded, TokenBucket, rate_limited


def test_slow_rate_refills_across_short_intervals():
    clock = ManualClock()
    bucket = TokenBucket(rate=0.5, capacity=1, clock=clock)
    assert bucket.try_consume()
    allowed = []
    for _ in range(6):
        clock.advance(1)
        allowed.append(bucket.try_consume())
    assert allowed == [False, True, False, True, False, True]


def test_fractional_tokens_accumulate():
    clock = ManualClock()
    bucket = TokenBucket(rate=1.5, capacity=10, clock=clock)
    while bucket.try_consume():
        pass
    per_second = []
    for _ in range(4):
        clock.advance(1)
        count = 0
        while bucket.try_consume():
            count += 1
        per_second.append(count)
    assert per_second == [1, 2, 1, 2]


def test_many_small_steps_add_up():
    clock = ManualClock()
    bucket = TokenBucket(rate=1, capacity=5, clock=clock)
    for _ in range(5):
        bucket.try_consume()
    for _ in range(8):
        clock.advance(0.25)
        bucket.available()
    assert bucket.available() == 2
    assert bucket.try_consume(2)


def test_wait_time_counts_partial_tokens():
    clock = ManualClock()
    bucket = TokenBucket(rate=2, capacity=5, clock=clock)
    for _ in range(5):
        bucket.try_consume()
    clock.advance(0.25)
    assert bucket.wait_time() == pytest.approx(0.25)
    assert bucket.wait_time(3) == pytest.approx(1.25)


def test_available_reports_whole_tokens():
    clock = ManualClock()
    bucket = TokenBucket(rate=1, capacity=3, clock=clock)
    for _ in range(3):
        bucket.try_consume()
    clock.advance(1.75)
    assert bucket.available() == 1
    clock.advance(1000)
    assert bucket.available() == 3


def test_keyed_limiter_uses_its_clock():
    clock = ManualClock()
    limiter = KeyedLimiter(rate=1, capacity=2, clock=clock)
    assert [limiter.allow("alice") for _ in range(3)] == [True, True, False]
    clock.advance(1)
    assert limiter.allow("alice")
    assert not limiter.allow("alice")
    clock.advance(5)
    assert [limiter.allow("alice") for _ in range(3)] == [True, True, False]


def test_keyed_limiter_slow_rate_and_retry_after():
    clock = ManualClock(start=100)
    limiter = KeyedLimiter(rate=0.5, capacity=1, clock=clock)
    assert limiter.allow("ip-1")
    assert not limiter.allow("ip-1")
    assert limiter.retry_after("ip-1") == pytest.approx(2.0)
    clock.advance(1)
    assert not limiter.allow("ip-1")
    assert limiter.retry_after("ip-1") == pytest.approx(1.0)
    clock.advance(1)
    assert limiter.allow("ip-1")


def test_prune_forgets_idle_keys():
    clock = ManualClock()
    limiter = KeyedLimiter(rate=1, capacity=2, clock=clock)
    limiter.allow("a")
    limiter.allow("b")
    limiter.allow("b")
    clock.advance(1)
    assert limiter.prune() == 1
    assert len(limiter) == 1
    clock.advance(1)
    assert limiter.prune() == 1
    assert len(limiter) == 0


def test_decorator_recovers_after_waiting():
    clock = ManualClock()
    limiter = KeyedLimiter(rate=0.5, capacity=1, clock=clock)

    @rate_limited(limiter, key_func=lambda user: user)
    def ping(user):
        return "pong"

    assert ping("u") == "pong"
    with pytest.raises(RateLimitExceeded) as info:
        ping("u")
    assert info.value.retry_after == pytest.approx(2.0)
    clock.advance(2)
    assert ping("u") == "pong"
