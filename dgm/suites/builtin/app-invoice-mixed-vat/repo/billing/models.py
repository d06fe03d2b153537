"""Invoice documents."""

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from .money import round_money


@dataclass(frozen=True)
class LineItem:
    """One invoice line. `vat_rate` is a fraction: Decimal('0.19') for 19 %."""

    description: str
    quantity: Decimal
    unit_price: Decimal
    vat_rate: Decimal

    def __post_init__(self):
        for name in ("quantity", "unit_price", "vat_rate"):
            value = getattr(self, name)
            if not isinstance(value, Decimal):
                object.__setattr__(self, name, Decimal(str(value)))
        if self.quantity <= 0:
            raise ValueError("quantity must be positive")
        if not Decimal("0") <= self.vat_rate < Decimal("1"):
            raise ValueError("vat_rate is a fraction between 0 and 1")

    @property
    def net(self) -> Decimal:
        """Net amount of the line (before VAT), in cents."""
        return round_money(self.quantity * self.unit_price)


@dataclass
class Invoice:
    number: str
    customer: str
    issued_on: date
    lines: list[LineItem] = field(default_factory=list)

    def add(self, description: str, quantity, unit_price, vat_rate) -> LineItem:
        line = LineItem(description, Decimal(str(quantity)), Decimal(str(unit_price)), Decimal(str(vat_rate)))
        self.lines.append(line)
        return line
