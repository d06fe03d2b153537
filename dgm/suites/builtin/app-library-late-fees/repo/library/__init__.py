"""Loans desk of the town library: checkouts, returns and late fees."""

from .models import Book, Loan, Member
from .policy import FeePolicy
from .service import LoanDesk, LoanError

__all__ = ["Book", "FeePolicy", "Loan", "LoanDesk", "LoanError", "Member"]
