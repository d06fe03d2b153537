from datetime import datetime

import pytest

from inventory import OutOfStock, ReservationExpired, UnknownReservation, render_stock_report, stock_rows


def test_reserve_reduces_available(service):
    res = service.reserve("KB-01", 3, "O-1")
    assert res.expires_at == datetime(2024, 6, 1, 12, 15)
    assert service.available("KB-01") == 7
    assert service.store.on_hand("KB-01") == 10


def test_cannot_reserve_more_than_available(service):
    service.reserve("MS-02", 3, "O-1")
    with pytest.raises(OutOfStock) as info:
        service.reserve("MS-02", 2, "O-2")
    assert info.value.available == 1


def test_confirm_takes_stock(service):
    res = service.reserve("KB-01", 4, "O-1")
    service.confirm(res.res_id)
    assert service.store.on_hand("KB-01") == 6
    assert service.available("KB-01") == 6


def test_release_gives_units_back(service):
    res = service.reserve("KB-01", 4, "O-1")
    service.release(res.res_id)
    assert service.available("KB-01") == 10
    with pytest.raises(UnknownReservation):
        service.release(res.res_id)


def test_extend_active_hold(service, clock):
    res = service.reserve("KB-01", 1, "O-1")
    clock.advance(10)
    assert service.extend(res.res_id).expires_at == datetime(2024, 6, 1, 12, 25)


def test_extend_expired_hold_is_refused(service, clock):
    res = service.reserve("KB-01", 1, "O-1")
    clock.advance(20)
    with pytest.raises(ReservationExpired):
        service.extend(res.res_id)


def test_stock_report(service):
    service.reserve("KB-01", 2, "O-1")
    assert stock_rows(service)[0].reserved == 2
    assert render_stock_report(service).splitlines() == [
        "SKU         on hand  reserved  available",
        "KB-01            10         2          8",
        "MS-02             4         0          4",
    ]
