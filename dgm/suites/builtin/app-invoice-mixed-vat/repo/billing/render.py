"""Plain-text invoice, as attached to the e-mail sent to the customer."""

from .models import Invoice
from .money import fmt_money, fmt_percent
from .totals import compute_totals

WIDTH = 48


def _amount_row(label: str, amount) -> str:
    text = fmt_money(amount)
    return f"{label + ':':<{WIDTH - len(text)}}{text}"


def render_invoice(invoice: Invoice) -> str:
    rows = [
        f"Invoice {invoice.number}",
        f"Customer: {invoice.customer}",
        f"Date: {invoice.issued_on.isoformat()}",
        "",
    ]
    for line in invoice.lines:
        qty = f"{line.quantity.normalize():f}"
        left = f"{line.description[:22]:<22} {qty:>5} x {fmt_money(line.unit_price):>8}"
        rows.append(f"{left}{fmt_money(line.net):>{WIDTH - len(left)}}")
    rows.append("-" * WIDTH)
    totals = compute_totals(invoice)
    rows.append(_amount_row("Net", totals.net))
    rows.append(_amount_row(f"VAT {fmt_percent(totals.vat_rate)}", totals.vat))
    rows.append(_amount_row("Total", totals.gross))
    return "\n".join(rows)
