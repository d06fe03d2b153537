import pytest

from survey import effective_sample_size, mean, weighted_mean, weighted_total


def test_weighted_mean_complete_data():
    assert weighted_mean([1, 2, 3], [1, 1, 2]) == pytest.approx(2.25)


def test_plain_mean_skips_missing():
    assert mean([4, None, 2]) == pytest.approx(3.0)


def test_weighted_total_skips_missing():
    assert weighted_total([4, None, 2], [1, 2, 1]) == pytest.approx(6.0)


def test_effective_sample_size_equal_weights():
    assert effective_sample_size([1, 2, 3, 4], [2, 2, 2, 2]) == pytest.approx(4.0)


def test_lengths_must_match():
    with pytest.raises(ValueError):
        weighted_mean([1, 2], [1])
