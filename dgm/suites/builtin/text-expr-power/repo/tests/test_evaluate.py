import pytest

from calc import CalcError, evaluate, parse


def test_precedence_and_associativity():
    assert evaluate("2 + 3 * 4") == 14
    assert evaluate("(2 + 3) * 4") == 20
    assert evaluate("10 - 4 - 3") == 3
    assert evaluate("100 / 10 / 5") == 2
    assert evaluate("7 // 2 + 7 % 2") == 4


def test_unary_signs():
    assert evaluate("-3 + 5") == 2
    assert evaluate("2 * -3") == -6
    assert evaluate("--4") == 4
    assert evaluate("-(1 + 2)") == -3
    assert evaluate("+7") == 7


def test_variables_and_functions():
    assert evaluate("price * (1 + vat / 100)", {"price": 80, "vat": 25}) == 100
    assert evaluate("max(1, x, 3) + abs(-2)", {"x": 5}) == 7
    assert evaluate("sqrt(16)") == 4
    assert evaluate("round(2.567, 2)") == 2.57


def test_tree_shape():
    assert parse("1 - -x") == ("binop", "-", ("num", 1), ("neg", ("var", "x")))


@pytest.mark.parametrize(
    "source",
    ["1 +", "(1", "1 2", "* 3", "f(1", "unknown", "nope(1)", "1 / 0", "sqrt(1, 2)"],
    ids=["dangling-op", "open-paren", "two-numbers", "leading-star", "open-call",
         "unknown-var", "unknown-func", "zero-division", "bad-args"],
)
def test_errors(source):
    with pytest.raises(CalcError):
        evaluate(source)
