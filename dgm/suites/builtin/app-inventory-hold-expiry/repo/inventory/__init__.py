"""Stock holds for the checkout: items in a customer's checkout are held for a short time."""

from .errors import OutOfStock, ReservationExpired, UnknownReservation
from .report import StockRow, render_stock_report, stock_rows
from .service import ReservationService
from .store import InventoryStore

__all__ = [
    "InventoryStore", "OutOfStock", "ReservationExpired", "ReservationService", "StockRow",
    "UnknownReservation", "render_stock_report", "stock_rows",
]
