"""Coupons that can be applied to a cart subtotal."""

from dataclasses import dataclass
from decimal import Decimal

from .money import round_cents, to_decimal


@dataclass(frozen=True)
class PercentDiscount:
    """`percent` off the subtotal, e.g. PercentDiscount("15") for 15 %."""

    percent: Decimal
    code: str = ""

    def __post_init__(self):
        object.__setattr__(self, "percent", to_decimal(self.percent))
        if not 0 <= self.percent <= 100:
            raise ValueError("percent must be between 0 and 100")

    def amount_off(self, subtotal: Decimal) -> Decimal:
        return round_cents(subtotal * self.percent / 100)

    def label(self) -> str:
        return f"{self.code or 'Discount'} ({self.percent.normalize()}%)"


@dataclass(frozen=True)
class FixedDiscount:
    """A fixed amount off the subtotal; never more than the subtotal itself."""

    amount: Decimal
    code: str = ""

    def __post_init__(self):
        object.__setattr__(self, "amount", to_decimal(self.amount))
        if self.amount < 0:
            raise ValueError("amount must not be negative")

    def amount_off(self, subtotal: Decimal) -> Decimal:
        return round_cents(min(self.amount, subtotal))

    def label(self) -> str:
        return self.code or "Discount"
