"""In-memory storage of stock levels and reservations (the production one is a database table)."""

from .errors import UnknownReservation
from .models import Reservation


class InventoryStore:
    def __init__(self, on_hand: dict[str, int] | None = None):
        self._on_hand: dict[str, int] = dict(on_hand or {})
        self._reservations: dict[str, Reservation] = {}

    def skus(self) -> list[str]:
        return sorted(self._on_hand)

    def on_hand(self, sku: str) -> int:
        return self._on_hand.get(sku, 0)

    def set_on_hand(self, sku: str, qty: int) -> None:
        if qty < 0:
            raise ValueError("stock cannot be negative")
        self._on_hand[sku] = qty

    def save_reservation(self, reservation: Reservation) -> None:
        self._reservations[reservation.res_id] = reservation

    def get_reservation(self, res_id: str) -> Reservation:
        try:
            return self._reservations[res_id]
        except KeyError:
            raise UnknownReservation(res_id) from None

    def delete_reservation(self, res_id: str) -> None:
        self.get_reservation(res_id)
        del self._reservations[res_id]

    def reservations_for(self, sku: str) -> list[Reservation]:
        return [r for r in self._reservations.values() if r.sku == sku]
