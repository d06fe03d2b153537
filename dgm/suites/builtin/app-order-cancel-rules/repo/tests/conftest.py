from decimal import Decimal

import pytest

from orders import OrderService
from orders.adapters import Payments, Stock


@pytest.fixture
def service():
    return OrderService(Stock({"lamp": 5, "desk": 2}), Payments())


@pytest.fixture
def order(service):
    return service.place("A-1", {"lamp": 2, "desk": 1}, Decimal("149.00"))
