"""Shopping cart for the web shop: products, cart lines, coupons and receipts."""

from .cart import Cart, CartLine
from .discounts import FixedDiscount, PercentDiscount
from .models import Product
from .receipt import format_receipt

__all__ = ["Cart", "CartLine", "FixedDiscount", "PercentDiscount", "Product", "format_receipt"]
