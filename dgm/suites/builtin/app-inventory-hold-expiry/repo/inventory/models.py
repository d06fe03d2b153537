"""Reservation record."""

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Reservation:
    """`qty` units of `sku` held for `order_id` until `expires_at`."""

    res_id: str
    sku: str
    qty: int
    order_id: str
    expires_at: datetime

    def is_expired(self, now: datetime) -> bool:
        """A hold is no longer valid from its expiry time on."""
        return now >= self.expires_at
