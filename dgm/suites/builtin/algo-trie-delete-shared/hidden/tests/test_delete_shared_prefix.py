from prefixtree import Autocomplete, Trie


def test_deleting_a_prefix_word_keeps_longer_words():
    trie = Trie(["car", "cart", "carton"])
    assert trie.delete("car")
    assert "car" not in trie
    assert "cart" in trie and "carton" in trie
    assert trie.starts_with("car") == ["cart", "carton"]
    assert len(trie) == 2


def test_deleting_keeps_sibling_branches():
    trie = Trie(["card", "care", "cat"])
    assert trie.delete("card")
    assert list(trie) == ["care", "cat"]
    assert trie.delete("cat")
    assert list(trie) == ["care"]
    assert trie.starts_with("ca") == ["care"]


def test_deleting_longer_word_keeps_shorter():
    trie = Trie(["in", "inn", "inner"])
    assert trie.delete("inner")
    assert list(trie) == ["in", "inn"]
    assert trie.longest_prefix_of("innards") == "inn"


def test_values_survive_neighbouring_deletes():
    trie = Trie()
    trie.insert("tea", 1)
    trie.insert("team", 2)
    trie.insert("ten", 3)
    trie.delete("tea")
    assert trie.get("team") == 2 and trie.get("ten") == 3
    trie.delete("ten")
    assert trie.get("team") == 2


def test_pruning_only_removes_unused_nodes():
    trie = Trie(["car", "cart", "care"])
    nodes = trie.node_count()
    assert nodes == 6
    trie.delete("cart")
    assert trie.node_count() == 5
    trie.delete("car")
    assert trie.node_count() == 5
    trie.delete("care")
    assert trie.node_count() == 1
    assert len(trie) == 0 and list(trie) == []


def test_delete_then_reinsert():
    trie = Trie(["ab", "abc"])
    trie.delete("ab")
    trie.insert("ab")
    trie.delete("abc")
    assert list(trie) == ["ab"]
    assert trie.node_count() == 3


def test_autocomplete_remove_keeps_related_terms():
    ac = Autocomplete([("java", 10), ("javascript", 90), ("jar", 5)])
    assert ac.remove("java")
    assert ac.suggest("ja") == ["javascript", "jar"]
    assert ac.remove("Javascript")
    assert ac.suggest("ja") == ["jar"]


def test_delete_missing_words_changes_nothing():
    trie = Trie(["alpha", "alphabet"])
    nodes = trie.node_count()
    assert not trie.delete("alph")
    assert not trie.delete("alphabets")
    assert not trie.delete("beta")
    assert list(trie) == ["alpha", "alphabet"]
    assert trie.node_count() == nodes
