import pytest

from numerals import NumeralError, from_roman, is_roman, to_roman


@pytest.mark.parametrize(
    "number, numeral",
    [
        (900, "CM"),
        (1900, "MCM"),
        (1990, "MCMXC"),
        (1994, "MCMXCIV"),
        (999, "CMXCIX"),
        (3999, "MMMCMXCIX"),
        (1949, "MCMXLIX"),
    ],
)
def test_nine_hundreds_are_written_with_cm(number, numeral):
    assert to_roman(number) == numeral


@pytest.mark.parametrize(
    "numeral, number",
    [("CM", 900), ("MCMXCIV", 1994), ("mcmlxxxiv", 1984), ("MMMCMXCIX", 3999)],
)
def test_cm_numerals_can_be_read(numeral, number):
    assert from_roman(numeral) == number
    assert is_roman(numeral)


@pytest.mark.parametrize("bad", ["DCD", "MDCD", "MDCDXCIV", "MMMDCDXCIX"])
def test_d_cd_spelling_is_not_canonical(bad):
    with pytest.raises(NumeralError):
        from_roman(bad)
    assert not is_roman(bad)


@pytest.mark.parametrize("bad", ["DCCCC", "MDCCCCXC", "CMCM", "CMD"])
def test_other_bad_spellings_still_rejected(bad):
    with pytest.raises(NumeralError):
        from_roman(bad)


def test_every_value_round_trips():
    seen = set()
    for number in range(1, 4000):
        numeral = to_roman(number)
        assert from_roman(numeral) == number
        seen.add(numeral)
    assert len(seen) == 3999


def test_other_values_unchanged():
    assert to_roman(400) == "CD"
    assert to_roman(494) == "CDXCIV"
    assert to_roman(2024) == "MMXXIV"
    assert to_roman(3888) == "MMMDCCCLXXXVIII"
    assert from_roman("CDXLIV") == 444
