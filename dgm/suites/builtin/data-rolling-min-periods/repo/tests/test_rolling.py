import pytest

from rollstat import Series, trailing_windows


def test_trailing_windows():
    assert list(trailing_windows([1, 2, 3, 4], 2)) == [[1], [1, 2], [2, 3], [3, 4]]


def test_rolling_mean_and_sum():
    s = Series([1, 2, 3, 4, 5])
    assert s.rolling(3).mean().to_list() == [None, None, 2.0, 3.0, 4.0]
    assert s.rolling(2).sum().to_list() == [None, 3.0, 5.0, 7.0, 9.0]


def test_rolling_min_max_std():
    s = Series([4, 1, 3, 8])
    assert s.rolling(2).min().to_list() == [None, 1.0, 1.0, 3.0]
    assert s.rolling(2).max().to_list() == [None, 4.0, 3.0, 8.0]
    assert s.rolling(3).std().to_list() == [None, None, pytest.approx(1.527525232), pytest.approx(3.605551275)]


def test_rolling_keeps_index():
    s = Series([1, 2, 3], index=["mon", "tue", "wed"])
    assert s.rolling(2).mean().index == ["mon", "tue", "wed"]


def test_window_must_be_positive():
    with pytest.raises(ValueError):
        Series([1]).rolling(0)
