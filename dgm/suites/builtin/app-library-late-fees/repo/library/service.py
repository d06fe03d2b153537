"""The loans desk used by the librarians' terminal. The clock is injected so tests control 'today'."""

from datetime import date, timedelta
from decimal import Decimal
from typing import Callable

from .models import Book, Loan, Member
from .policy import FeePolicy


class LoanError(Exception):
    pass


class LoanDesk:
    def __init__(self, today: Callable[[], date], policy: FeePolicy | None = None):
        self._today = today
        self.policy = policy or FeePolicy()
        self._loans: list[Loan] = []

    def checkout(self, book: Book, member: Member) -> Loan:
        if any(loan.book.isbn == book.isbn and loan.is_open for loan in self._loans):
            raise LoanError(f"{book.title!r} is already on loan")
        today = self._today()
        loan = Loan(len(self._loans) + 1, book, member, today, today + timedelta(days=self.policy.loan_days))
        self._loans.append(loan)
        return loan

    def return_book(self, isbn: str) -> Decimal:
        """Close the open loan of `isbn`; returns the late fee owed for it."""
        for loan in self._loans:
            if loan.book.isbn == isbn and loan.is_open:
                loan.returned_on = self._today()
                return self.policy.fee_for(loan, loan.returned_on)
        raise LoanError(f"no open loan for {isbn}")

    def pay(self, member: Member, amount: Decimal) -> None:
        member.fees_paid += amount

    def loans_of(self, member: Member) -> list[Loan]:
        return [loan for loan in self._loans if loan.member.member_id == member.member_id]

    def overdue(self) -> list[Loan]:
        today = self._today()
        return [loan for loan in self._loans if loan.is_open and loan.due_on < today]

    def statement(self, member: Member) -> dict:
        """Account statement: fee per loan, total fees, what was paid and the balance due."""
        today = self._today()
        rows = [(loan.book.title, self.policy.fee_for(loan, today)) for loan in self.loans_of(member)]
        total = sum((fee for _, fee in rows), Decimal("0.00"))
        return {"loans": rows, "total_fees": total, "paid": member.fees_paid, "balance": total - member.fees_paid}
