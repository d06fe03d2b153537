"""The cart itself."""

from dataclasses import dataclass
from decimal import Decimal

from .models import Product
from .money import round_cents


@dataclass
class CartLine:
    product: Product
    quantity: int

    @property
    def total(self) -> Decimal:
        return self.product.price * self.quantity


class Cart:
    """Holds lines keyed by SKU and at most one coupon."""

    def __init__(self):
        self._lines: dict[str, CartLine] = {}
        self.coupon = None

    def add(self, product: Product, quantity: int = 1) -> None:
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        line = self._lines.get(product.sku)
        if line is None:
            self._lines[product.sku] = CartLine(product, quantity)
        else:
            line.quantity += quantity

    def remove(self, sku: str, quantity: int | None = None) -> None:
        """Remove `quantity` units of a SKU, or the whole line when quantity is None."""
        line = self._lines[sku]
        if quantity is None or quantity >= line.quantity:
            del self._lines[sku]
        else:
            line.quantity -= quantity

    def apply_coupon(self, coupon) -> None:
        self.coupon = coupon

    @property
    def lines(self) -> list[CartLine]:
        return list(self._lines.values())

    def subtotal(self) -> Decimal:
        return round_cents(sum((line.total for line in self._lines.values()), Decimal("0")))

    def discount(self) -> Decimal:
        if self.coupon is None:
            return Decimal("0.00")
        return self.coupon.amount_off(self.subtotal())

    def total(self) -> Decimal:
        return self.subtotal() - self.discount()
