from cachekit import LRUCache, lru_memoize


def test_get_protects_entry_from_eviction():
    cache = LRUCache(maxsize=2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1
    cache.put("c", 3)
    assert "a" in cache
    assert "b" not in cache
    assert cache.keys() == ["a", "c"]


def test_get_moves_key_to_most_recent_position():
    cache = LRUCache(maxsize=4)
    for key in "wxyz":
        cache.put(key, key.upper())
    cache.get("x")
    cache.get("w")
    assert cache.keys() == ["y", "z", "x", "w"]
    cache.put("v", "V")
    cache.put("u", "U")
    assert cache.keys() == ["x", "w", "v", "u"]
    assert cache.stats.evictions == 2


def test_frequently_used_memoized_argument_stays_cached():
    calls = []

    @lru_memoize(maxsize=2)
    def load(name):
        calls.append(name)
        return name.upper()

    load("config")
    for other in ["a", "b", "c", "d"]:
        load("config")
        load(other)
    assert calls.count("config") == 1
    assert load.cache.stats.hits == 4


def test_missing_get_and_peek_leave_order_alone():
    cache = LRUCache(maxsize=3)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("c", 3)
    assert cache.get("nope") is None
    assert cache.peek("a") == 1
    assert "a" in cache
    assert cache.keys() == ["a", "b", "c"]
    cache.put("d", 4)
    assert "a" not in cache
    assert cache.stats.misses == 1
    assert cache.stats.hits == 0


def test_put_existing_key_refreshes_recency():
    cache = LRUCache(maxsize=2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("a", 3)
    cache.put("c", 4)
    assert cache.keys() == ["a", "c"]
    assert cache.peek("a") == 3
