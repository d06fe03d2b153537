import pytest

from cachekit import CacheStats, LRUCache, lru_memoize


def test_put_and_get():
    cache = LRUCache(maxsize=3)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1
    assert cache.get("missing") is None
    assert cache.get("missing", 0) == 0
    assert len(cache) == 2


def test_evicts_oldest_insert_when_full():
    cache = LRUCache(maxsize=2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("c", 3)
    assert "a" not in cache
    assert cache.keys() == ["b", "c"]
    assert cache.stats.evictions == 1


def test_replacing_a_value_keeps_size():
    cache = LRUCache(maxsize=2)
    cache.put("a", 1)
    cache.put("a", 10)
    assert len(cache) == 1
    assert cache.peek("a") == 10


def test_pop_and_clear():
    cache = LRUCache(maxsize=2)
    cache.put("a", 1)
    assert cache.pop("a") == 1
    assert cache.pop("a", None) is None
    with pytest.raises(KeyError):
        cache.pop("a")
    cache.put("b", 2)
    cache.clear()
    assert len(cache) == 0


def test_invalid_maxsize():
    with pytest.raises(ValueError):
        LRUCache(maxsize=0)


def test_stats_ratio():
    stats = CacheStats(hits=3, misses=1)
    assert stats.hit_ratio == 0.75
    stats.reset()
    assert stats.hit_ratio == 0.0


def test_memoize_caches_results():
    calls = []

    @lru_memoize(maxsize=4)
    def square(x):
        calls.append(x)
        return x * x

    assert square(3) == 9
    assert square(3) == 9
    assert square(x=3) == 9
    assert calls == [3, 3]
    assert square.cache.stats.hits == 1
