from decimal import Decimal

import pytest

from orders import IllegalTransition, OrderStatus


def test_cannot_cancel_shipped_order(service, order):
    service.pay("A-1")
    service.ship("A-1", "TRK9")
    with pytest.raises(IllegalTransition):
        service.cancel("A-1", "too late")
    assert order.status is OrderStatus.SHIPPED
    assert service.stock.levels == {"lamp": 3, "desk": 1}
    assert service.payments.refunds == []
    assert [s for s, _ in order.history] == ["pending", "paid", "shipped"]


def test_shipped_order_can_still_be_delivered_after_refused_cancel(service, order):
    service.pay("A-1")
    service.ship("A-1", "TRK9")
    with pytest.raises(IllegalTransition):
        service.cancel("A-1")
    service.deliver("A-1")
    assert order.status is OrderStatus.DELIVERED


def test_cancelling_twice_is_refused_and_has_no_effect(service, order):
    service.pay("A-1")
    service.cancel("A-1")
    with pytest.raises(IllegalTransition):
        service.cancel("A-1")
    assert service.stock.levels == {"lamp": 5, "desk": 2}
    assert service.payments.refunds == [("A-1", Decimal("149.00"))]
    assert [s for s, _ in order.history] == ["pending", "paid", "cancelled"]


def test_cannot_cancel_refunded(service, order):
    service.pay("A-1")
    service.ship("A-1", "TRK")
    service.deliver("A-1")
    service.refund("A-1")
    with pytest.raises(IllegalTransition):
        service.cancel("A-1")
    assert service.payments.refunds == [("A-1", Decimal("149.00"))]
    assert service.stock.levels == {"lamp": 3, "desk": 1}


def test_cancel_pending_and_paid_still_work(service, order):
    service.place("B-2", {"lamp": 1}, Decimal("30.00"))
    service.pay("B-2")
    service.cancel("A-1", "changed mind")
    service.cancel("B-2", "duplicate")
    assert service.get("A-1").status is OrderStatus.CANCELLED
    assert service.get("B-2").status is OrderStatus.CANCELLED
    assert service.stock.levels == {"lamp": 5, "desk": 2}
    assert service.payments.refunds == [("B-2", Decimal("30.00"))]
    assert service.get("B-2").history[-1] == (OrderStatus.CANCELLED, "duplicate")
