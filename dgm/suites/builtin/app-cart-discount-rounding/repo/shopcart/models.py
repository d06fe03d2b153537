"""Catalogue objects."""

from dataclasses import dataclass
from decimal import Decimal

from .money import to_decimal


@dataclass(frozen=True)
class Product:
    """A product from the catalogue. `price` is the unit price."""

    sku: str
    name: str
    price: Decimal

    def __post_init__(self):
        object.__setattr__(self, "price", to_decimal(self.price))
        if self.price < 0:
            raise ValueError(f"negative price for {self.sku}")
