from datetime import date
from decimal import Decimal

from library import FeePolicy, LoanDesk


def test_fee_frozen_once_book_is_returned(desk, clock, dune, mia):
    desk.checkout(dune, mia)                 # due 2024-03-22
    clock.today = date(2024, 3, 25)
    assert desk.return_book(dune.isbn) == Decimal("0.75")
    clock.today = date(2024, 4, 10)
    st = desk.statement(mia)
    assert st["loans"] == [("Dune", Decimal("0.75"))]
    assert st["total_fees"] == Decimal("0.75")


def test_on_time_return_stays_free(desk, clock, dune, mia):
    desk.checkout(dune, mia)
    clock.today = date(2024, 3, 20)
    desk.return_book(dune.isbn)
    clock.today = date(2024, 6, 1)
    assert desk.statement(mia)["total_fees"] == Decimal("0.00")


def test_balance_after_paying_returned_loan(desk, clock, dune, emma, mia):
    desk.checkout(dune, mia)
    desk.checkout(emma, mia)
    clock.today = date(2024, 3, 24)
    fee = desk.return_book(dune.isbn)        # 2 days late
    desk.pay(mia, fee)
    clock.today = date(2024, 3, 30)          # emma still out, 8 days late
    st = desk.statement(mia)
    assert st["loans"] == [("Dune", Decimal("0.50")), ("Emma", Decimal("2.00"))]
    assert st["balance"] == Decimal("2.00")


def test_custom_policy_fee_frozen_after_return(clock, dune, mia):
    desk = LoanDesk(clock, FeePolicy(daily_fee=Decimal("1.00"), grace_days=1))
    desk.checkout(dune, mia)
    clock.today = date(2024, 3, 24)
    assert desk.return_book(dune.isbn) == Decimal("2.00")
    clock.today = date(2024, 5, 1)
    st = desk.statement(mia)
    assert st["total_fees"] == Decimal("2.00")
    assert st["balance"] == Decimal("2.00")


def test_open_loan_fee_keeps_growing(desk, clock, dune, mia):
    desk.checkout(dune, mia)
    clock.today = date(2024, 3, 24)
    assert desk.statement(mia)["total_fees"] == Decimal("0.50")
    clock.today = date(2024, 3, 28)
    assert desk.statement(mia)["total_fees"] == Decimal("1.50")


def test_grace_days_still_apply(clock, dune, mia):
    desk = LoanDesk(clock, FeePolicy(grace_days=3))
    desk.checkout(dune, mia)
    clock.today = date(2024, 3, 25)
    assert desk.return_book(dune.isbn) == Decimal("0.00")
