from urlkit import build_query, parse_query, with_query


def test_list_value_repeats_the_key():
    assert build_query({"tag": ["python", "web dev"]}) == "tag=python&tag=web%20dev"


def test_tuple_value_and_order_with_other_keys():
    params = {"q": "shoes", "size": (41, 42), "page": 2}
    assert build_query(params) == "q=shoes&size=41&size=42&page=2"


def test_empty_list_is_left_out():
    assert build_query({"tag": [], "q": "x"}) == "q=x"
    assert build_query({"tag": ()}) == ""


def test_items_are_converted_like_single_values():
    assert build_query({"flags": [True, False], "ids": [1, 2.5]}) == (
        "flags=true&flags=false&ids=1&ids=2.5"
    )
    assert build_query({"v": ["a&b", "c=d"]}) == "v=a%26b&v=c%3Dd"
    assert build_query({"tag": ["a", None, "b"]}) == "tag=a&tag=b"


def test_pairs_with_list_values():
    assert build_query([("b", ["x", "y"]), ("a", 1)]) == "b=x&b=y&a=1"


def test_sort_keeps_the_order_of_list_items():
    assert build_query({"z": ["2", "1"], "a": "0"}, sort=True) == "a=0&z=2&z=1"


def test_with_query_and_round_trip():
    url = with_query("https://api.test/items?lang=en", {"tag": ["a", "b"]})
    assert url == "https://api.test/items?lang=en&tag=a&tag=b"
    params = {"tag": ["red", "big & cheap"], "q": "shoe"}
    assert parse_query(build_query(params)) == {"tag": ["red", "big & cheap"], "q": ["shoe"]}


def test_strings_are_not_split():
    assert build_query({"q": "abc"}) == "q=abc"
    assert build_query({"q": ""}) == "q="
    assert build_query({"x": None, "y": 0}) == "y=0"
