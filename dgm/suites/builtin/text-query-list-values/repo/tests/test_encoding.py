from urlkit import quote_component, unquote_component


def test_quote_unreserved_untouched():
    assert quote_component("abc-XYZ_0.9~") == "abc-XYZ_0.9~"


def test_quote_reserved_and_space():
    assert quote_component("a b&c=d/e?f#g+h") == "a%20b%26c%3Dd%2Fe%3Ff%23g%2Bh"
    assert quote_component("a/b", safe="/") == "a/b"


def test_quote_unicode():
    assert quote_component("café") == "caf%C3%A9"


def test_unquote():
    assert unquote_component("caf%C3%A9%20au%20lait") == "café au lait"
    assert unquote_component("a+b") == "a+b"
    assert unquote_component("a+b", plus_is_space=True) == "a b"
    assert unquote_component("100%") == "100%"
    assert unquote_component("%zz") == "%zz"
