"""Late-fee rules decided by the library board."""

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from .models import Loan


@dataclass(frozen=True)
class FeePolicy:
    """`daily_fee` per day late after `grace_days`; never more than the book's replacement cost."""

    daily_fee: Decimal = Decimal("0.25")
    grace_days: int = 0
    loan_days: int = 21

    def days_late(self, loan: Loan, today: date) -> int:
        """Days between the due date and the day the book came back (or today, while it is out)."""
        end = today
        return max(0, (end - loan.due_on).days)

    def fee_for(self, loan: Loan, today: date) -> Decimal:
        late = self.days_late(loan, today)
        if late <= self.grace_days:
            return Decimal("0.00")
        fee = self.daily_fee * late
        return min(fee, loan.book.replacement_cost).quantize(Decimal("0.01"))
