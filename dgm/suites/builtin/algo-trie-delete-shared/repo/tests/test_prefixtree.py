from prefixtree import Autocomplete, Trie


def test_insert_and_contains():
    trie = Trie(["car", "cat", "dog"])
    assert "car" in trie and "ca" not in trie and 3 not in trie
    assert len(trie) == 3
    trie.insert("car")
    assert len(trie) == 3


def test_values():
    trie = Trie()
    trie.insert("k", 1)
    trie.insert("k", 2)
    assert trie.get("k") == 2
    assert trie.get("missing", "x") == "x"


def test_starts_with_sorted():
    trie = Trie(["banana", "band", "ban", "apple"])
    assert trie.starts_with("ban") == ["ban", "banana", "band"]
    assert trie.count_prefix("b") == 3
    assert trie.starts_with("c") == []
    assert list(trie) == ["apple", "ban", "banana", "band"]


def test_longest_prefix_of():
    trie = Trie(["a", "ab", "abcd"])
    assert trie.longest_prefix_of("abcx") == "ab"
    assert trie.longest_prefix_of("zzz") is None


def test_delete_unrelated_words():
    trie = Trie(["apple", "dog"])
    before = trie.node_count()
    assert trie.delete("dog")
    assert not trie.delete("dog")
    assert not trie.delete("app")
    assert list(trie) == ["apple"]
    assert trie.node_count() == before - 3


def test_autocomplete_by_weight():
    ac = Autocomplete([("python", 50), ("pytest", 80), ("pandas", 30), ("pyramid", 80)])
    assert ac.suggest("py") == ["pyramid", "pytest", "python"]
    assert ac.suggest("P", limit=2) == ["pyramid", "pytest"]
    assert ac.remove("pandas")
    assert len(ac) == 3
