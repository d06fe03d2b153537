import pytest

from inventory import OutOfStock, ReservationExpired, render_stock_report, stock_rows


def test_expired_hold_no_longer_blocks_stock(service, clock):
    service.reserve("KB-01", 10, "O-1")
    clock.advance(30)
    assert service.available("KB-01") == 10
    res = service.reserve("KB-01", 1, "O-2")
    assert res.qty == 1
    assert service.available("KB-01") == 9


def test_hold_expires_at_its_expiry_time(service, clock):
    service.reserve("MS-02", 4, "O-1")
    clock.advance(15)
    assert service.available("MS-02") == 4
    service.reserve("MS-02", 4, "O-2")
    assert service.available("MS-02") == 0


def test_confirming_expired_hold_is_refused(service, clock):
    res = service.reserve("KB-01", 6, "O-1")
    clock.advance(40)
    with pytest.raises(ReservationExpired):
        service.confirm(res.res_id)
    assert service.store.on_hand("KB-01") == 10
    assert service.available("KB-01") == 10


def test_mix_of_expired_and_active_holds(service, clock):
    first = service.reserve("KB-01", 6, "O-1")      # expires 12:15
    clock.advance(10)
    second = service.reserve("KB-01", 3, "O-2")     # expires 12:25
    clock.advance(10)                                # 12:20
    assert service.available("KB-01") == 7
    service.reserve("KB-01", 7, "O-3")
    with pytest.raises(OutOfStock):
        service.reserve("KB-01", 1, "O-4")
    service.confirm(second.res_id)
    assert service.store.on_hand("KB-01") == 7
    assert service.available("KB-01") == 0
    with pytest.raises(ReservationExpired):
        service.confirm(first.res_id)
    assert service.store.on_hand("KB-01") == 7


def test_stock_report_ignores_expired_holds(service, clock):
    service.reserve("KB-01", 10, "O-1")
    clock.advance(5)
    service.reserve("MS-02", 1, "O-2")
    clock.advance(12)                                # KB hold expired, MS hold active
    rows = {row.sku: row for row in stock_rows(service)}
    assert (rows["KB-01"].reserved, rows["KB-01"].available) == (0, 10)
    assert (rows["MS-02"].reserved, rows["MS-02"].available) == (1, 3)
    assert render_stock_report(service).splitlines()[1:] == [
        "KB-01            10         0         10",
        "MS-02             4         1          3",
    ]


def test_active_holds_still_count(service, clock):
    res = service.reserve("KB-01", 10, "O-1")
    clock.advance(14)
    assert service.available("KB-01") == 0
    with pytest.raises(OutOfStock):
        service.reserve("KB-01", 1, "O-2")
    assert stock_rows(service)[0].reserved == 10
    service.confirm(res.res_id)
    assert service.store.on_hand("KB-01") == 0


def test_extended_hold_can_be_confirmed_later(service, clock):
    res = service.reserve("MS-02", 2, "O-1")
    clock.advance(14)
    service.extend(res.res_id)
    clock.advance(14)
    assert service.available("MS-02") == 2
    service.confirm(res.res_id)
    assert service.store.on_hand("MS-02") == 2
