import pytest

from statkit import describe, iqr, median, percentile, quartiles


def test_median_of_even_length_data():
    assert median([1, 2, 3, 4]) == pytest.approx(2.5)
    assert median([10, 40, 20, 30]) == pytest.approx(25.0)


def test_median_of_odd_length_data():
    assert median([1, 2, 3]) == pytest.approx(2.0)
    assert median([9, 1, 5, 3, 7]) == pytest.approx(5.0)


def test_interpolated_percentiles():
    data = [10, 20, 30, 40, 50]
    assert percentile(data, 90) == pytest.approx(46.0)
    assert percentile(data, 10) == pytest.approx(14.0)
    assert percentile(data, 62.5) == pytest.approx(35.0)
    assert percentile([15, 20, 35, 40, 50], 40) == pytest.approx(29.0)


def test_quartiles_and_iqr():
    data = list(range(1, 10))
    assert quartiles(data) == pytest.approx((3.0, 5.0, 7.0))
    assert iqr(data) == pytest.approx(4.0)
    assert quartiles([1, 2, 3, 4]) == pytest.approx((1.75, 2.5, 3.25))


def test_describe_quartiles():
    summary = describe([4, 8, 15, 16, 23, 42])
    assert summary["25%"] == pytest.approx(9.75)
    assert summary["50%"] == pytest.approx(15.5)
    assert summary["75%"] == pytest.approx(21.25)


def test_single_value_and_extremes_unchanged():
    assert median([42]) == 42
    assert percentile([42], 37) == 42
    assert percentile([3, 1, 2], 0) == 1
    assert percentile([3, 1, 2], 100) == 3
