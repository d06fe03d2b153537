import itertools
from datetime import datetime, timedelta

import pytest

from inventory import InventoryStore, ReservationService


class FakeClock:
    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, minutes: float) -> None:
        self.now += timedelta(minutes=minutes)


@pytest.fixture
def clock():
    return FakeClock(datetime(2024, 6, 1, 12, 0))


@pytest.fixture
def service(clock):
    counter = itertools.count(1)
    store = InventoryStore({"KB-01": 10, "MS-02": 4})
    return ReservationService(store, clock, lambda: f"R{next(counter)}")
