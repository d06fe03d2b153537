"""The stock overview shown on the back-office dashboard."""

from dataclasses import dataclass

from .service import ReservationService


@dataclass(frozen=True)
class StockRow:
    sku: str
    on_hand: int
    reserved: int
    available: int


def stock_rows(service: ReservationService) -> list[StockRow]:
    rows = []
    for sku in service.store.skus():
        on_hand = service.store.on_hand(sku)
        reserved = sum(r.qty for r in service.store.reservations_for(sku))
        rows.append(StockRow(sku, on_hand, reserved, on_hand - reserved))
    return rows


def render_stock_report(service: ReservationService) -> str:
    lines = [f"{'SKU':<10}{'on hand':>9}{'reserved':>10}{'available':>11}"]
    for row in stock_rows(service):
        lines.append(f"{row.sku:<10}{row.on_hand:>9}{row.reserved:>10}{row.available:>11}")
    return "\n".join(lines)
