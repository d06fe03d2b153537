"""Books, members and loans."""

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal


@dataclass(frozen=True)
class Book:
    isbn: str
    title: str
    replacement_cost: Decimal


@dataclass
class Member:
    member_id: str
    name: str
    fees_paid: Decimal = field(default_factory=lambda: Decimal("0.00"))


@dataclass
class Loan:
    loan_id: int
    book: Book
    member: Member
    borrowed_on: date
    due_on: date
    returned_on: date | None = None

    @property
    def is_open(self) -> bool:
        return self.returned_on is None
