"""Errors reported to the checkout."""


class InventoryError(Exception):
    pass


class OutOfStock(InventoryError):
    def __init__(self, sku: str, wanted: int, available: int):
        super().__init__(f"{sku}: wanted {wanted}, only {available} available")
        self.sku = sku
        self.wanted = wanted
        self.available = available


class UnknownReservation(InventoryError, KeyError):
    pass


class ReservationExpired(InventoryError):
    pass
