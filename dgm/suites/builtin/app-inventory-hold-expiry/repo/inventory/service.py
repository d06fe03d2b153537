"""Holding, extending, confirming and releasing stock for checkouts.

The clock and the id generator are injected: `clock()` returns the current datetime.
"""

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Callable

from .errors import OutOfStock, ReservationExpired
from .models import Reservation
from .store import InventoryStore

DEFAULT_HOLD = timedelta(minutes=15)


class ReservationService:
    def __init__(self, store: InventoryStore, clock: Callable[[], datetime],
                 new_id: Callable[[], str], hold: timedelta = DEFAULT_HOLD):
        self.store = store
        self.clock = clock
        self.new_id = new_id
        self.hold = hold

    def reserved(self, sku: str) -> int:
        """Units of `sku` currently held by checkouts."""
        return sum(r.qty for r in self.store.reservations_for(sku))

    def available(self, sku: str) -> int:
        return self.store.on_hand(sku) - self.reserved(sku)

    def reserve(self, sku: str, qty: int, order_id: str) -> Reservation:
        if qty <= 0:
            raise ValueError("qty must be positive")
        available = self.available(sku)
        if qty > available:
            raise OutOfStock(sku, qty, available)
        reservation = Reservation(self.new_id(), sku, qty, order_id, self.clock() + self.hold)
        self.store.save_reservation(reservation)
        return reservation

    def extend(self, res_id: str) -> Reservation:
        """Give a checkout that is still active another full hold period."""
        reservation = self.store.get_reservation(res_id)
        now = self.clock()
        if reservation.is_expired(now):
            raise ReservationExpired(res_id)
        extended = replace(reservation, expires_at=now + self.hold)
        self.store.save_reservation(extended)
        return extended

    def confirm(self, res_id: str) -> None:
        """The order was paid: the held units leave the stock for good."""
        reservation = self.store.get_reservation(res_id)
        self.store.set_on_hand(reservation.sku, self.store.on_hand(reservation.sku) - reservation.qty)
        self.store.delete_reservation(res_id)

    def release(self, res_id: str) -> None:
        """The customer left the checkout: give the units back."""
        self.store.delete_reservation(res_id)
