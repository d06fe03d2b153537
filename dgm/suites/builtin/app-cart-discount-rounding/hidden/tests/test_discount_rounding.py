from decimal import Decimal

from shopcart import Cart, FixedDiscount, PercentDiscount, Product, format_receipt


def _cart(price, quantity=1, coupon=None):
    cart = Cart()
    cart.add(Product("SKU", "Thing", price), quantity)
    if coupon is not None:
        cart.apply_coupon(coupon)
    return cart


def test_half_cent_discount_rounds_up():
    cart = _cart("12.30", coupon=PercentDiscount("15"))  # 1.845
    assert cart.discount() == Decimal("1.85")
    assert cart.total() == Decimal("10.45")


def test_half_cent_rounds_up_for_other_amounts():
    assert _cart("0.50", coupon=PercentDiscount("5")).discount() == Decimal("0.03")  # 0.025
    assert _cart("4.10", 5, coupon=PercentDiscount("5")).discount() == Decimal("1.03")  # 1.025
    assert _cart("2.50", coupon=PercentDiscount("25")).discount() == Decimal("0.63")  # 0.625


def test_receipt_shows_rounded_up_discount():
    cart = _cart("12.30", coupon=PercentDiscount("15", code="SPRING"))
    lines = format_receipt(cart).splitlines()
    assert lines[-2].endswith("-1.85")
    assert lines[-1].endswith("10.45")


def test_odd_half_cents_still_round_up():
    cart = _cart("12.90", coupon=PercentDiscount("15"))  # 1.935
    assert cart.discount() == Decimal("1.94")
    assert cart.total() == Decimal("10.96")


def test_below_half_cent_rounds_down():
    assert _cart("12.34", coupon=PercentDiscount("15")).discount() == Decimal("1.85")  # 1.851
    assert _cart("0.33", coupon=PercentDiscount("10")).discount() == Decimal("0.03")  # 0.033


def test_fixed_discount_unaffected():
    cart = _cart("9.99", 2, coupon=FixedDiscount("2.50"))
    assert cart.discount() == Decimal("2.50")
    assert cart.total() == Decimal("17.48")
