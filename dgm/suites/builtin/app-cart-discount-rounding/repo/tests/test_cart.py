from decimal import Decimal

import pytest

from shopcart import Cart, FixedDiscount, PercentDiscount, Product, format_receipt

MUG = Product("MUG-1", "Mug", "8.00")
TEE = Product("TEE-2", "T-shirt", "19.99")


def test_subtotal_sums_lines():
    cart = Cart()
    cart.add(MUG, 2)
    cart.add(TEE)
    assert cart.subtotal() == Decimal("35.99")


def test_adding_same_product_merges_lines():
    cart = Cart()
    cart.add(MUG)
    cart.add(MUG, 3)
    assert len(cart.lines) == 1
    assert cart.lines[0].quantity == 4


def test_remove_part_of_a_line():
    cart = Cart()
    cart.add(MUG, 3)
    cart.remove("MUG-1", 1)
    assert cart.subtotal() == Decimal("16.00")
    cart.remove("MUG-1")
    assert cart.lines == []


def test_percent_discount_whole_cents():
    cart = Cart()
    cart.add(MUG, 5)
    cart.apply_coupon(PercentDiscount("10"))
    assert cart.discount() == Decimal("4.00")
    assert cart.total() == Decimal("36.00")


def test_fixed_discount_never_exceeds_subtotal():
    cart = Cart()
    cart.add(MUG)
    cart.apply_coupon(FixedDiscount("20"))
    assert cart.total() == Decimal("0.00")


def test_float_prices_are_rejected():
    with pytest.raises(TypeError):
        Product("X", "X", 1.5)


def test_receipt_lists_lines_and_total():
    cart = Cart()
    cart.add(TEE, 2)
    cart.apply_coupon(FixedDiscount("5", code="WELCOME5"))
    text = format_receipt(cart)
    assert "2 x T-shirt" in text
    assert text.splitlines()[-2].endswith("-5.00")
    assert text.splitlines()[-1].endswith("34.98")
