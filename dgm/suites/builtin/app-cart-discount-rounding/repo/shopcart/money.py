"""Money helpers. All amounts are Decimal values in the shop currency."""

import decimal

CENT = decimal.Decimal("0.01")


def to_decimal(value) -> decimal.Decimal:
    """Accept str, int or Decimal (never float) and return a Decimal."""
    if isinstance(value, float):
        raise TypeError("use str or Decimal for money, not float")
    return decimal.Decimal(value)


def round_cents(value: decimal.Decimal) -> decimal.Decimal:
    """Round an amount to whole cents, the way our accounting does (half a cent goes up)."""
    return value.quantize(CENT, rounding=decimal.ROUND_HALF_EVEN)


def format_amount(value: decimal.Decimal) -> str:
    """Render an amount with two decimals, e.g. Decimal('3.5') -> '3.50'."""
    return f"{round_cents(value):.2f}"
