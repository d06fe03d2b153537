from datetime import date, timedelta, timezone

import pytest

from tseries import Point, daily_report, load_csv, local_date, parse_timestamp, resample_daily

BERLIN_WINTER = timezone(timedelta(hours=1))
NEW_YORK_WINTER = timezone(timedelta(hours=-5))


def pts(*pairs):
    return [Point(parse_timestamp(ts), value) for ts, value in pairs]


def test_local_date_uses_the_requested_timezone():
    ts = parse_timestamp("2024-01-01T23:30:00Z")
    assert local_date(ts, timezone.utc) == date(2024, 1, 1)
    assert local_date(ts, BERLIN_WINTER) == date(2024, 1, 2)
    assert local_date(parse_timestamp("2024-01-02T03:00:00Z"), NEW_YORK_WINTER) == date(2024, 1, 1)
    assert local_date(parse_timestamp("2024-01-02T00:30:00+02:00"), timezone.utc) == date(2024, 1, 1)


def test_readings_are_bucketed_by_local_day():
    points = pts(
        ("2024-01-01T12:00:00Z", 1.0),
        ("2024-01-01T22:30:00Z", 2.0),
        ("2024-01-01T23:30:00Z", 3.0),
        ("2024-01-02T10:00:00Z", 5.0),
    )
    assert resample_daily(points, "sum", tz=BERLIN_WINTER) == [
        (date(2024, 1, 1), 3.0),
        (date(2024, 1, 2), 8.0),
    ]
    assert resample_daily(points, "sum") == [(date(2024, 1, 1), 6.0), (date(2024, 1, 2), 5.0)]
    assert resample_daily(points, "count", tz=NEW_YORK_WINTER) == [(date(2024, 1, 1), 3), (date(2024, 1, 2), 1)]


def test_offsets_in_the_data_are_respected():
    points = pts(("2024-05-10T01:00:00+03:00", 7.0), ("2024-05-10T05:00:00+03:00", 9.0))
    assert resample_daily(points, "last") == [(date(2024, 5, 9), 7.0), (date(2024, 5, 10), 9.0)]
    assert resample_daily(points, "last", tz=timezone(timedelta(hours=3))) == [(date(2024, 5, 10), 9.0)]


def test_days_without_readings_are_present():
    points = pts(("2024-02-27T10:00:00Z", 4.0), ("2024-03-01T10:00:00Z", 6.0), ("2024-02-27T11:00:00Z", 2.0))
    assert resample_daily(points, "mean") == [
        (date(2024, 2, 27), pytest.approx(3.0)),
        (date(2024, 2, 28), None),
        (date(2024, 2, 29), None),
        (date(2024, 3, 1), pytest.approx(6.0)),
    ]
    for how in ("sum", "min", "max", "last"):
        assert [value for _, value in resample_daily(points, how)][1:3] == [None, None], how
    assert resample_daily(points, "count") == [
        (date(2024, 2, 27), 2),
        (date(2024, 2, 28), 0),
        (date(2024, 2, 29), 0),
        (date(2024, 3, 1), 1),
    ]


def test_gaps_and_timezone_together():
    points = pts(("2024-01-01T23:30:00Z", 1.0), ("2024-01-04T22:30:00Z", 2.0))
    assert resample_daily(points, "sum", tz=BERLIN_WINTER) == [
        (date(2024, 1, 2), 1.0),
        (date(2024, 1, 3), None),
        (date(2024, 1, 4), 2.0),
    ]


def test_report_shows_missing_days():
    text = daily_report(
        load_csv("time,value\n2024-03-01T08:00:00Z,2\n2024-03-03T08:00:00Z,3\n2024-03-01T23:15:00Z,4\n"),
        tz=BERLIN_WINTER,
    )
    assert text.splitlines() == [
        "2024-03-01         2.0",
        "2024-03-02         4.0",
        "2024-03-03         3.0",
    ]
    text = daily_report(load_csv("time,value\n2024-03-01T08:00:00Z,2\n2024-03-03T08:00:00Z,3\n"))
    assert text.splitlines() == [
        "2024-03-01         2.0",
        "2024-03-02           -",
        "2024-03-03         3.0",
    ]


def test_no_readings():
    assert resample_daily([], "sum", tz=BERLIN_WINTER) == []
    assert daily_report([]) == ""


def test_contiguous_utc_data_unchanged():
    points = pts(("2024-06-01T00:00:00Z", 1.0), ("2024-06-01T23:59:59Z", 3.0), ("2024-06-02T00:00:00Z", 10.0))
    assert resample_daily(points, "mean") == [(date(2024, 6, 1), 2.0), (date(2024, 6, 2), 10.0)]
