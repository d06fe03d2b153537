import pytest

from statkit import describe, format_summary, percentile


def test_extreme_percentiles_are_min_and_max():
    data = [7, 3, 9, 1, 5]
    assert percentile(data, 0) == 1
    assert percentile(data, 100) == 9


def test_percentile_range_is_checked():
    with pytest.raises(ValueError):
        percentile([1, 2, 3], 101)


def test_describe_has_min_and_max():
    summary = describe([4, 8, 15, 16, 23, 42])
    assert summary["count"] == 6
    assert summary["min"] == 4
    assert summary["max"] == 42
    assert summary["mean"] == pytest.approx(18.0)


def test_format_summary():
    text = format_summary({"count": 3, "mean": 2.0})
    assert text.splitlines() == ["count  3", "mean   2.00"]
