from ratlib import Rational, parse, to_decimal, to_mixed


def test_parse_forms():
    assert parse("3/4") == Rational(3, 4)
    assert parse("-2") == Rational(-2)
    assert parse("1 1/2") == Rational(3, 2)
    assert parse("-1 1/2") == Rational(-3, 2)
    assert parse("0.75") == Rational(3, 4)


def test_mixed():
    assert to_mixed(Rational(7, 4)) == "1 3/4"
    assert to_mixed(Rational(-7, 4)) == "-1 3/4"
    assert to_mixed(Rational(8, 4)) == "2"


def test_decimal():
    assert to_decimal(Rational(2, 3)) == "0.67"
    assert to_decimal(Rational(-1, 8), 2) == "-0.13"
