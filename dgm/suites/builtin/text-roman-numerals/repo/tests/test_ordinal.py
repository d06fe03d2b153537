import pytest

from numerals import NumeralError, ordinal


@pytest.mark.parametrize(
    "number, text",
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (102, "102nd"),
        (111, "111th"),
        (0, "0th"),
    ],
)
def test_ordinal(number, text):
    assert ordinal(number) == text


def test_ordinal_rejects_floats():
    with pytest.raises(NumeralError):
        ordinal(2.0)
