"""Invoice totals: net, VAT and gross amounts."""

from dataclasses import dataclass
from decimal import Decimal

from .models import Invoice
from .money import ZERO, round_money


@dataclass(frozen=True)
class Totals:
    net: Decimal
    vat_rate: Decimal
    vat: Decimal
    gross: Decimal


def compute_totals(invoice: Invoice) -> Totals:
    """VAT is computed on the net total of the invoice and rounded to the cent."""
    if not invoice.lines:
        return Totals(ZERO, ZERO, ZERO, ZERO)
    net = sum((line.net for line in invoice.lines), ZERO)
    rate = invoice.lines[0].vat_rate
    vat = round_money(net * rate)
    return Totals(net, rate, vat, net + vat)
