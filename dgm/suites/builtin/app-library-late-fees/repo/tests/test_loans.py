from datetime import date, timedelta
from decimal import Decimal

import pytest

from library import LoanError


def test_checkout_sets_due_date(desk, dune, mia):
    loan = desk.checkout(dune, mia)
    assert loan.due_on == date(2024, 3, 22)


def test_book_cannot_be_lent_twice(desk, dune, mia):
    desk.checkout(dune, mia)
    with pytest.raises(LoanError):
        desk.checkout(dune, mia)


def test_return_on_time_costs_nothing(desk, clock, dune, mia):
    desk.checkout(dune, mia)
    clock.today = date(2024, 3, 22)
    assert desk.return_book(dune.isbn) == Decimal("0.00")


def test_late_return_fee(desk, clock, dune, mia):
    desk.checkout(dune, mia)
    clock.today = date(2024, 3, 25)
    assert desk.return_book(dune.isbn) == Decimal("0.75")


def test_fee_capped_at_replacement_cost(desk, clock, emma, mia):
    desk.checkout(emma, mia)
    clock.today = date(2024, 3, 22) + timedelta(days=40)
    assert desk.return_book(emma.isbn) == Decimal("3.00")


def test_overdue_list(desk, clock, dune, emma, mia):
    desk.checkout(dune, mia)
    desk.checkout(emma, mia)
    clock.today = date(2024, 3, 23)
    desk.return_book(emma.isbn)
    assert [loan.book.title for loan in desk.overdue()] == ["Dune"]


def test_statement_for_open_late_loan(desk, clock, dune, mia):
    desk.checkout(dune, mia)
    clock.today = date(2024, 3, 26)
    desk.pay(mia, Decimal("0.50"))
    st = desk.statement(mia)
    assert st["total_fees"] == Decimal("1.00")
    assert st["balance"] == Decimal("0.50")
