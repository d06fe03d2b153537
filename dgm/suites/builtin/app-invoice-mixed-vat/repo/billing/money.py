"""Money helpers: Decimal amounts rounded to cents, half up (commercial rounding)."""

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def round_money(amount: Decimal) -> Decimal:
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def fmt_money(amount: Decimal) -> str:
    """'1234.5' -> '1,234.50'"""
    return f"{round_money(amount):,.2f}"


def fmt_percent(rate: Decimal) -> str:
    """Decimal('0.19') -> '19%', Decimal('0.055') -> '5.5%'."""
    return f"{(rate * 100).normalize():f}%"
