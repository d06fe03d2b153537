import math

import pytest

from calc import CalcError, evaluate


def test_basic_power():
    assert evaluate("2 ** 3") == 8
    assert evaluate("2**10") == 1024
    assert evaluate("10 ** 0") == 1
    assert evaluate("4 ** 0.5") == 2


def test_power_is_right_associative():
    assert evaluate("2 ** 3 ** 2") == 512
    assert evaluate("(2 ** 3) ** 2") == 64
    assert evaluate("2 ** 2 ** 2 ** 2") == 65536


def test_power_binds_tighter_than_multiplication():
    assert evaluate("2 * 3 ** 2") == 18
    assert evaluate("3 ** 2 * 2") == 18
    assert evaluate("1 + 2 ** 3 - 1") == 8
    assert evaluate("2 ** 6 // 5 % 7") == 5
    assert evaluate("100 / 10 ** 2") == 1


def test_power_and_unary_minus():
    assert evaluate("-2 ** 2") == -4
    assert evaluate("(-2) ** 2") == 4
    assert evaluate("2 ** -1") == 0.5
    assert evaluate("2 ** -1 ** 2") == 0.5
    assert evaluate("-x ** 2", {"x": 3}) == -9
    assert evaluate("2 * -3 ** 2") == -18


def test_power_with_variables_and_functions():
    assert evaluate("sqrt(a ** 2 + b ** 2)", {"a": 3, "b": 4}) == 5
    assert evaluate("max(2 ** 3, 3 ** 2)") == 9
    assert evaluate("principal * (1 + rate) ** years", {"principal": 1000, "rate": 0.1, "years": 2}) == pytest.approx(1210)
    assert math.isclose(evaluate("1e2 ** .5"), 10)


@pytest.mark.parametrize(
    "source",
    ["2 **", "** 2", "2 *** 3", "0 ** -1", "(-8) ** 0.5", "2 * * 3"],
    ids=["missing-exponent", "missing-base", "three-stars", "zero-negative", "complex", "spaced-stars"],
)
def test_power_errors(source):
    with pytest.raises(CalcError):
        evaluate(source)


def test_existing_operators_unchanged():
    assert evaluate("7 // 2") == 3
    assert evaluate("2 * 3") == 6
    assert evaluate("2 * -3") == -6
    assert evaluate("-(1 + 2) * 2") == -6
