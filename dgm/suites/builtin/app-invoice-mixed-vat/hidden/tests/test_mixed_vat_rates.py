from datetime import date
from decimal import Decimal

from billing import Invoice, compute_totals, render_invoice


def invoice(*lines):
    inv = Invoice("2024-0107", "Bookworm Ltd", date(2024, 5, 3))
    for line in lines:
        inv.add(*line)
    return inv


def vat_rows(text):
    return [line.split() for line in text.splitlines() if line.startswith("VAT")]


def amount(text, label):
    [row] = [line for line in text.splitlines() if line.startswith(label + ":")]
    return row.split()[-1]


BOOK_AND_LAMP = (("Novel", 2, "25.00", "0.07"), ("Desk lamp", 1, "60.00", "0.19"))


def test_totals_with_two_rates():
    totals = compute_totals(invoice(*BOOK_AND_LAMP))
    assert totals.net == Decimal("110.00")
    assert totals.vat == Decimal("14.90")
    assert totals.gross == Decimal("124.90")


def test_totals_do_not_depend_on_line_order():
    totals = compute_totals(invoice(*reversed(BOOK_AND_LAMP)))
    assert (totals.net, totals.vat, totals.gross) == (Decimal("110.00"), Decimal("14.90"), Decimal("124.90"))


def test_one_vat_row_per_rate_lowest_first():
    for lines in (BOOK_AND_LAMP, tuple(reversed(BOOK_AND_LAMP))):
        text = render_invoice(invoice(*lines))
        assert vat_rows(text) == [["VAT", "7%:", "3.50"], ["VAT", "19%:", "11.40"]]
        assert amount(text, "Net") == "110.00"
        assert amount(text, "Total") == "124.90"
        assert text.splitlines()[-1].startswith("Total:")


def test_vat_rounded_per_rate_not_per_line():
    inv = invoice(("Postcard", 1, "0.10", "0.07"), ("Postcard", 1, "0.10", "0.07"),
                  ("Postcard", 1, "0.10", "0.07"), ("Pen", 1, "1.05", "0.19"))
    totals = compute_totals(inv)
    # 7 % of 0.30 = 0.021 -> 0.02 ; 19 % of 1.05 = 0.1995 -> 0.20
    assert totals.vat == Decimal("0.22")
    assert totals.gross == Decimal("1.57")
    assert vat_rows(render_invoice(inv)) == [["VAT", "7%:", "0.02"], ["VAT", "19%:", "0.20"]]


def test_three_rates_with_fractional_percent():
    inv = invoice(("Lamp", 1, "100.00", "0.19"), ("Book", 3, "10.00", "0.07"),
                  ("Magazine", 2, "5.00", "0.055"), ("Lamp shade", 1, "20.00", "0.19"))
    totals = compute_totals(inv)
    assert totals.net == Decimal("160.00")
    assert totals.vat == Decimal("25.45")          # 0.55 + 2.10 + 22.80
    assert totals.gross == Decimal("185.45")
    assert vat_rows(render_invoice(inv)) == [
        ["VAT", "5.5%:", "0.55"], ["VAT", "7%:", "2.10"], ["VAT", "19%:", "22.80"]]


def test_single_rate_invoice_unchanged():
    inv = invoice(("Desk lamp", 2, "24.50", "0.19"), ("Cable set", 1, "10.99", "0.19"))
    totals = compute_totals(inv)
    assert (totals.net, totals.vat, totals.gross) == (Decimal("59.99"), Decimal("11.40"), Decimal("71.39"))
    assert render_invoice(inv).splitlines()[-3:] == [
        "Net:                                       59.99",
        "VAT 19%:                                   11.40",
        "Total:                                     71.39",
    ]
