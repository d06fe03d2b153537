from datetime import date, datetime, timedelta, timezone

from tseries import day_range, load_csv, parse_timestamp


def test_parse_timestamp_forms():
    assert parse_timestamp("2024-03-01T23:30:00Z") == datetime(2024, 3, 1, 23, 30, tzinfo=timezone.utc)
    assert parse_timestamp("2024-03-01 23:30") == datetime(2024, 3, 1, 23, 30, tzinfo=timezone.utc)
    plus2 = parse_timestamp("2024-03-01T01:00:00+02:00")
    assert plus2.utcoffset() == timedelta(hours=2)


def test_load_csv_skips_empty_values():
    points = load_csv("time,value\n2024-03-01T10:00Z,1.5\n2024-03-01T11:00Z,\n")
    assert len(points) == 1
    assert points[0].value == 1.5


def test_day_range_inclusive():
    days = list(day_range(date(2024, 2, 27), date(2024, 3, 1)))
    assert days == [date(2024, 2, 27), date(2024, 2, 28), date(2024, 2, 29), date(2024, 3, 1)]
