from datetime import date
from decimal import Decimal

import pytest

from library import Book, LoanDesk, Member


class Clock:
    def __init__(self, today: date):
        self.today = today

    def __call__(self) -> date:
        return self.today


@pytest.fixture
def clock():
    return Clock(date(2024, 3, 1))


@pytest.fixture
def desk(clock):
    return LoanDesk(clock)


@pytest.fixture
def dune():
    return Book("978-0441013593", "Dune", Decimal("12.00"))


@pytest.fixture
def emma():
    return Book("978-0141439587", "Emma", Decimal("3.00"))


@pytest.fixture
def mia():
    return Member("M1", "Mia")
