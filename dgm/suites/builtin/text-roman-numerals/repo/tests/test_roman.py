import pytest

from numerals import NumeralError, from_roman, is_roman, to_roman


@pytest.mark.parametrize(
    "number, numeral",
    [
        (1, "I"),
        (4, "IV"),
        (9, "IX"),
        (14, "XIV"),
        (40, "XL"),
        (90, "XC"),
        (400, "CD"),
        (444, "CDXLIV"),
        (2024, "MMXXIV"),
        (3888, "MMMDCCCLXXXVIII"),
    ],
)
def test_to_roman(number, numeral):
    assert to_roman(number) == numeral


def test_from_roman_is_case_insensitive():
    assert from_roman(" xiv ") == 14
    assert from_roman("MMXXIV") == 2024


@pytest.mark.parametrize("bad", [0, 4000, -5])
def test_out_of_range(bad):
    with pytest.raises(NumeralError):
        to_roman(bad)


@pytest.mark.parametrize("bad", ["", "IIII", "VX", "IL", "ABC", "XIVV"])
def test_invalid_numerals(bad):
    with pytest.raises(NumeralError):
        from_roman(bad)


def test_is_roman():
    assert is_roman("XLII")
    assert not is_roman("XXXX")
