"""Order processing for the warehouse shop."""

from .models import Order, OrderStatus
from .service import OrderService
from .transitions import IllegalTransition

__all__ = ["IllegalTransition", "Order", "OrderService", "OrderStatus"]
