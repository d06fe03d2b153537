from ratlib import Rational, parse, to_decimal, to_mixed


def test_sign_moves_to_numerator():
    r = Rational(1, -2)
    assert (r.numerator, r.denominator) == (-1, 2)
    r = Rational(-6, -8)
    assert (r.numerator, r.denominator) == (3, 4)
    r = Rational(0, -5)
    assert (r.numerator, r.denominator) == (0, 1)


def test_equal_values_compare_and_hash_equal():
    assert Rational(1, -2) == Rational(-1, 2)
    assert Rational(-3, -9) == Rational(1, 3)
    assert Rational(4, -2) == -2
    assert len({Rational(1, -2), Rational(-1, 2), Rational(2, -4)}) == 1


def test_division_by_negative():
    q = Rational(1, 2) / Rational(-1, 3)
    assert str(q) == "-3/2"
    assert q < 0
    assert q == Rational(-3, 2)
    assert 1 / Rational(-2, 5) == Rational(-5, 2)


def test_ordering_with_negative_denominators():
    assert Rational(1, -2) < Rational(1, 3)
    assert Rational(1, -3) > Rational(1, -2)
    assert Rational(3, -4) <= Rational(-1, 2)
    assert sorted([Rational(1, -4), Rational(1, 2), Rational(3, -2)]) == [
        Rational(-3, 2),
        Rational(-1, 4),
        Rational(1, 2),
    ]


def test_text_output():
    assert str(Rational(3, -4)) == "-3/4"
    assert repr(Rational(3, -4)) == "Rational(-3, 4)"
    assert str(Rational(-4, -2)) == "2"
    assert to_mixed(Rational(7, -4)) == "-1 3/4"
    assert to_decimal(Rational(2, -3)) == "-0.67"


def test_parse_negative_denominator():
    assert parse("3/-4") == Rational(-3, 4)
    assert str(parse("-6/-8")) == "3/4"


def test_positive_values_unchanged():
    assert str(Rational(10, 4)) == "5/2"
    assert Rational(1, 2) / Rational(1, 3) == Rational(3, 2)
