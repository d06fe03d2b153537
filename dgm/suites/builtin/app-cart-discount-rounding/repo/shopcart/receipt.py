"""Plain-text receipt printed at the end of checkout."""

from .cart import Cart
from .money import format_amount

WIDTH = 32


def _row(label: str, amount: str) -> str:
    return f"{label[: WIDTH - len(amount) - 1]:<{WIDTH - len(amount)}}{amount}"


def format_receipt(cart: Cart) -> str:
    rows = []
    for line in cart.lines:
        rows.append(_row(f"{line.quantity} x {line.product.name}", format_amount(line.total)))
    rows.append("-" * WIDTH)
    rows.append(_row("Subtotal", format_amount(cart.subtotal())))
    if cart.coupon is not None:
        rows.append(_row(cart.coupon.label(), "-" + format_amount(cart.discount())))
    rows.append(_row("Total", format_amount(cart.total())))
    return "\n".join(rows)
