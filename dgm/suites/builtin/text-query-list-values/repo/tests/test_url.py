from urlkit import join_path, with_query


def test_with_query_new():
    assert with_query("https://x.test/search", {"q": "a b"}) == "https://x.test/search?q=a%20b"


def test_with_query_existing_and_fragment():
    url = with_query("https://x.test/p?lang=en#top", {"page": 2})
    assert url == "https://x.test/p?lang=en&page=2#top"


def test_with_query_nothing_to_add():
    assert with_query("https://x.test/p", {"q": None}) == "https://x.test/p"


def test_join_path():
    assert join_path("https://x.test/v1/", "users", "ann smith") == "https://x.test/v1/users/ann%20smith"
    assert join_path("https://x.test", 42, "a/b") == "https://x.test/42/a%2Fb"
