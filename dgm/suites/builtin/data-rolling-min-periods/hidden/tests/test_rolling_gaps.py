import pytest

from rollstat import Series

GAPPY = Series([1, 2, None, 4, 5], index=["d1", "d2", "d3", "d4", "d5"])


def test_default_requires_full_window_of_readings():
    assert GAPPY.rolling(2).mean().to_list() == [None, 1.5, None, None, 4.5]
    assert GAPPY.rolling(2).sum().to_list() == [None, 3.0, None, None, 9.0]
    assert GAPPY.rolling(3).max().to_list() == [None, None, None, None, None]


def test_min_periods_one_skips_missing_values():
    r = GAPPY.rolling(2, min_periods=1)
    assert r.mean().to_list() == [1.0, 1.5, 2.0, 4.0, 4.5]
    assert r.sum().to_list() == [1.0, 3.0, 2.0, 4.0, 9.0]
    assert r.min().to_list() == [1.0, 1.0, 2.0, 4.0, 4.0]
    assert r.max().to_list() == [1.0, 2.0, 2.0, 4.0, 5.0]
    assert r.mean().index == ["d1", "d2", "d3", "d4", "d5"]


def test_min_periods_counts_present_values():
    s = Series([3, None, None, 6, 9, None])
    assert s.rolling(3, min_periods=2).mean().to_list() == [None, None, None, None, 7.5, 7.5]
    assert s.rolling(3, min_periods=1).mean().to_list() == [3.0, 3.0, 3.0, 6.0, 7.5, 7.5]


def test_min_periods_at_the_start_of_the_series():
    s = Series([1, 2, 3, 4])
    assert s.rolling(3, min_periods=2).sum().to_list() == [None, 3.0, 6.0, 9.0]
    assert s.rolling(3, min_periods=1).max().to_list() == [1.0, 2.0, 3.0, 4.0]
    assert s.rolling(3, min_periods=3).mean().to_list() == [None, None, 2.0, 3.0]


def test_std_with_missing_values():
    s = Series([2, 4, None, 8])
    assert s.rolling(3, min_periods=2).std().to_list() == [
        None,
        pytest.approx(1.414213562),
        pytest.approx(1.414213562),
        pytest.approx(2.828427125),
    ]


def test_min_periods_is_validated():
    s = Series([1, 2, 3])
    with pytest.raises(ValueError):
        s.rolling(2, min_periods=3)
    with pytest.raises(ValueError):
        s.rolling(2, min_periods=0)


def test_complete_data_unchanged():
    s = Series([1, 2, 3, 4, 5])
    assert s.rolling(3).mean().to_list() == [None, None, 2.0, 3.0, 4.0]
    assert s.rolling(1).sum().to_list() == [1.0, 2.0, 3.0, 4.0, 5.0]
