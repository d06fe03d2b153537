from urlkit import build_query, parse_query


def test_build_query_basic():
    assert build_query({"q": "red shoes", "page": 2}) == "q=red%20shoes&page=2"


def test_build_query_escapes_keys_and_values():
    assert build_query({"a&b": "c=d"}) == "a%26b=c%3Dd"


def test_build_query_booleans_and_none():
    assert build_query({"draft": False, "pinned": True, "author": None}) == "draft=false&pinned=true"


def test_build_query_pairs_and_sort():
    assert build_query([("b", 1), ("a", 2), ("b", 3)]) == "b=1&a=2&b=3"
    assert build_query({"b": 1, "a": 2}, sort=True) == "a=2&b=1"


def test_build_query_empty():
    assert build_query({}) == ""
    assert build_query({"x": None}) == ""


def test_parse_query():
    assert parse_query("?tag=a&tag=b&q=x+y") == {"tag": ["a", "b"], "q": ["x y"]}
    assert parse_query("flag&empty=") == {"flag": [""], "empty": [""]}
    assert parse_query("") == {}


def test_round_trip():
    params = {"q": "50% off & more", "lang": "fr"}
    assert parse_query(build_query(params)) == {"q": ["50% off & more"], "lang": ["fr"]}
