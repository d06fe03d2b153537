import pytest

from statkit import mean, stdev, variance


def test_mean():
    assert mean([1, 2, 3, 4]) == pytest.approx(2.5)


def test_sample_variance():
    assert variance([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx(32 / 7)


def test_population_stdev():
    assert stdev([2, 4, 4, 4, 5, 5, 7, 9], ddof=0) == pytest.approx(2.0)


def test_empty_data_is_rejected():
    with pytest.raises(ValueError):
        mean([])
