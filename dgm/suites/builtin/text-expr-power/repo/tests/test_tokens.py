import pytest

from calc import CalcError, tokenize


def kinds_and_texts(source):
    return [(t.kind, t.text) for t in tokenize(source)]


def test_numbers_names_and_operators():
    assert kinds_and_texts("price*1.5 - x_2") == [
        ("NAME", "price"), ("OP", "*"), ("NUMBER", "1.5"), ("OP", "-"),
        ("NAME", "x_2"), ("END", ""),
    ]


def test_floor_division_is_one_token():
    assert kinds_and_texts("7//2") == [("NUMBER", "7"), ("OP", "//"), ("NUMBER", "2"), ("END", "")]


def test_exponent_numbers():
    assert [t.text for t in tokenize("1e3 + 2.5E-2 + .5")][:5] == ["1e3", "+", "2.5E-2", "+", ".5"]


def test_positions():
    assert [t.pos for t in tokenize(" a + 10")] == [1, 3, 5, 7]


def test_bad_character():
    with pytest.raises(CalcError) as info:
        tokenize("2 $ 3")
    assert info.value.position == 2
