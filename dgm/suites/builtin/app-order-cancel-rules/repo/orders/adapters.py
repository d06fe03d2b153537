"""In-memory stand-ins for the stock and payment systems."""

from decimal import Decimal


class Stock:
    def __init__(self, levels: dict[str, int]):
        self.levels = dict(levels)

    def take(self, sku: str, qty: int) -> None:
        if self.levels.get(sku, 0) < qty:
            raise ValueError(f"not enough {sku} in stock")
        self.levels[sku] -= qty

    def put_back(self, sku: str, qty: int) -> None:
        self.levels[sku] = self.levels.get(sku, 0) + qty


class Payments:
    def __init__(self):
        self.charges: list[tuple[str, Decimal]] = []
        self.refunds: list[tuple[str, Decimal]] = []

    def charge(self, order_id: str, amount: Decimal) -> None:
        self.charges.append((order_id, amount))

    def refund(self, order_id: str, amount: Decimal) -> None:
        self.refunds.append((order_id, amount))
