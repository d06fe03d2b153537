from datetime import date
from decimal import Decimal

import pytest

from billing import Invoice, LineItem, compute_totals, render_invoice
from billing.money import fmt_money, fmt_percent


def make_invoice():
    inv = Invoice("2024-0042", "ACME GmbH", date(2024, 4, 2))
    inv.add("Desk lamp", 2, "24.50", "0.19")
    inv.add("Cable set", 1, "10.99", "0.19")
    return inv


def test_line_net():
    assert LineItem("x", Decimal("3"), Decimal("0.333"), Decimal("0.19")).net == Decimal("1.00")


def test_totals_single_rate():
    totals = compute_totals(make_invoice())
    assert totals.net == Decimal("59.99")
    assert totals.vat == Decimal("11.40")
    assert totals.gross == Decimal("71.39")


def test_empty_invoice():
    totals = compute_totals(Invoice("0", "x", date(2024, 1, 1)))
    assert (totals.net, totals.vat, totals.gross) == (Decimal("0.00"),) * 3


def test_invalid_lines():
    with pytest.raises(ValueError):
        LineItem("x", Decimal("0"), Decimal("1"), Decimal("0.19"))
    with pytest.raises(ValueError):
        LineItem("x", Decimal("1"), Decimal("1"), Decimal("19"))


def test_formatting_helpers():
    assert fmt_money(Decimal("1234.5")) == "1,234.50"
    assert fmt_percent(Decimal("0.19")) == "19%"
    assert fmt_percent(Decimal("0.10")) == "10%"
    assert fmt_percent(Decimal("0.055")) == "5.5%"


def test_render_single_rate():
    assert render_invoice(make_invoice()) == "\n".join([
        "Invoice 2024-0042",
        "Customer: ACME GmbH",
        "Date: 2024-04-02",
        "",
        "Desk lamp                  2 x    24.50    49.00",
        "Cable set                  1 x    10.99    10.99",
        "------------------------------------------------",
        "Net:                                       59.99",
        "VAT 19%:                                   11.40",
        "Total:                                     71.39",
    ])
