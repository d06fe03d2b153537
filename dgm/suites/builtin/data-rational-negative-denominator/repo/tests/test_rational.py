import pytest

from ratlib import Rational


def test_lowest_terms():
    r = Rational(6, 8)
    assert (r.numerator, r.denominator) == (3, 4)


def test_arithmetic():
    assert Rational(1, 2) + Rational(1, 3) == Rational(5, 6)
    assert Rational(1, 2) - Rational(3, 4) == Rational(-1, 4)
    assert Rational(2, 3) * 3 == 2
    assert Rational(1, 2) / Rational(1, 4) == 2


def test_ordering():
    assert Rational(1, 3) < Rational(1, 2)
    assert Rational(-1, 2) < 0
    assert sorted([Rational(3, 4), Rational(-1, 4), Rational(1, 2)]) == [
        Rational(-1, 4),
        Rational(1, 2),
        Rational(3, 4),
    ]


def test_zero_denominator():
    with pytest.raises(ZeroDivisionError):
        Rational(1, 0)


def test_str():
    assert str(Rational(-3, 4)) == "-3/4"
    assert str(Rational(4, 2)) == "2"
