"""Order life cycle: place, pay, ship, deliver, cancel, refund."""

from decimal import Decimal

from .adapters import Payments, Stock
from .models import Order, OrderStatus
from .transitions import IllegalTransition, check


class OrderService:
    def __init__(self, stock: Stock, payments: Payments):
        self.stock = stock
        self.payments = payments
        self._orders: dict[str, Order] = {}

    def get(self, order_id: str) -> Order:
        return self._orders[order_id]

    def _move(self, order: Order, target: OrderStatus, note: str = "") -> None:
        check(order.status, target)
        order.status = target
        order.history.append((target, note))

    def place(self, order_id: str, items: dict[str, int], total: Decimal) -> Order:
        """Create a pending order and take its items out of stock."""
        if order_id in self._orders:
            raise ValueError(f"duplicate order id {order_id}")
        for sku, qty in items.items():
            self.stock.take(sku, qty)
        order = Order(order_id, dict(items), total)
        order.history.append((OrderStatus.PENDING, "placed"))
        self._orders[order_id] = order
        return order

    def pay(self, order_id: str) -> None:
        order = self.get(order_id)
        self._move(order, OrderStatus.PAID)
        self.payments.charge(order.order_id, order.total)

    def ship(self, order_id: str, tracking: str) -> None:
        self._move(self.get(order_id), OrderStatus.SHIPPED, tracking)

    def deliver(self, order_id: str) -> None:
        self._move(self.get(order_id), OrderStatus.DELIVERED)

    def cancel(self, order_id: str, reason: str = "") -> None:
        """Cancel an order: its items go back to stock and a paid order is refunded."""
        order = self.get(order_id)
        if order.status in (OrderStatus.DELIVERED, OrderStatus.REFUNDED):
            raise IllegalTransition(order.status, OrderStatus.CANCELLED)
        if order.status == OrderStatus.PAID:
            self.payments.refund(order.order_id, order.total)
        for sku, qty in order.items.items():
            self.stock.put_back(sku, qty)
        order.status = OrderStatus.CANCELLED
        order.history.append((OrderStatus.CANCELLED, reason))

    def refund(self, order_id: str, reason: str = "") -> None:
        """Refund a delivered order (returned by the customer)."""
        order = self.get(order_id)
        self._move(order, OrderStatus.REFUNDED, reason)
        self.payments.refund(order.order_id, order.total)
