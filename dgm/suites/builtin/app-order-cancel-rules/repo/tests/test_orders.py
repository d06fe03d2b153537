from decimal import Decimal

import pytest

from orders import IllegalTransition, OrderStatus


def test_place_takes_stock(service, order):
    assert order.status is OrderStatus.PENDING
    assert service.stock.levels == {"lamp": 3, "desk": 1}


def test_happy_path(service, order):
    service.pay("A-1")
    service.ship("A-1", "TRK123")
    service.deliver("A-1")
    assert order.status is OrderStatus.DELIVERED
    assert [s for s, _ in order.history] == ["pending", "paid", "shipped", "delivered"]
    assert service.payments.charges == [("A-1", Decimal("149.00"))]


def test_cannot_ship_unpaid(service, order):
    with pytest.raises(IllegalTransition):
        service.ship("A-1", "TRK")
    assert order.status is OrderStatus.PENDING


def test_cancel_pending_returns_stock(service, order):
    service.cancel("A-1", "changed mind")
    assert order.status is OrderStatus.CANCELLED
    assert service.stock.levels == {"lamp": 5, "desk": 2}
    assert service.payments.refunds == []


def test_cancel_paid_refunds(service, order):
    service.pay("A-1")
    service.cancel("A-1")
    assert service.payments.refunds == [("A-1", Decimal("149.00"))]


def test_cannot_cancel_delivered(service, order):
    service.pay("A-1")
    service.ship("A-1", "TRK")
    service.deliver("A-1")
    with pytest.raises(IllegalTransition):
        service.cancel("A-1")


def test_refund_delivered(service, order):
    service.pay("A-1")
    service.ship("A-1", "TRK")
    service.deliver("A-1")
    service.refund("A-1", "broken")
    assert order.status is OrderStatus.REFUNDED
    assert service.payments.refunds == [("A-1", Decimal("149.00"))]
