"""Order data."""

from dataclasses import dataclass, field
from decimal import Decimal
from enum import Enum


class OrderStatus(str, Enum):
    PENDING = "pending"
    PAID = "paid"
    SHIPPED = "shipped"
    DELIVERED = "delivered"
    CANCELLED = "cancelled"
    REFUNDED = "refunded"


@dataclass
class Order:
    order_id: str
    items: dict[str, int]
    total: Decimal
    status: OrderStatus = OrderStatus.PENDING
    history: list[tuple[OrderStatus, str]] = field(default_factory=list)
