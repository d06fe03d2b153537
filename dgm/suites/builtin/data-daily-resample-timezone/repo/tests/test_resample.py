from datetime import date

import pytest

from tseries import daily_report, load_csv, resample_daily

READINGS = """time,value
2024-03-01T08:00:00Z,2.0
2024-03-01T12:00:00Z,4.0
2024-03-02T09:30:00Z,5.0
2024-03-01T18:00:00Z,6.0
2024-03-03T07:15:00Z,1.0
"""


def test_daily_mean_utc():
    result = resample_daily(load_csv(READINGS))
    assert result == [
        (date(2024, 3, 1), pytest.approx(4.0)),
        (date(2024, 3, 2), pytest.approx(5.0)),
        (date(2024, 3, 3), pytest.approx(1.0)),
    ]


def test_other_aggregations():
    points = load_csv(READINGS)
    assert resample_daily(points, "sum")[0] == (date(2024, 3, 1), 12.0)
    assert resample_daily(points, "count")[0] == (date(2024, 3, 1), 3)
    assert resample_daily(points, "last")[0] == (date(2024, 3, 1), 6.0)
    assert resample_daily(points, "max")[0] == (date(2024, 3, 1), 6.0)


def test_unknown_aggregation():
    with pytest.raises(ValueError):
        resample_daily(load_csv(READINGS), "median")


def test_report():
    assert daily_report(load_csv(READINGS)).splitlines() == [
        "2024-03-01        12.0",
        "2024-03-02         5.0",
        "2024-03-03         1.0",
    ]
