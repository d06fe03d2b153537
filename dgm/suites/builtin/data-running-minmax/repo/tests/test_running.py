import pytest

from streamstats import RunningStats


def test_mean_and_variance():
    stats = RunningStats.from_values([2, 4, 4, 4, 5, 5, 7, 9])
    assert stats.count == 8
    assert stats.mean == pytest.approx(5.0)
    assert stats.variance == pytest.approx(32 / 7)


def test_min_max_mixed_signs():
    stats = RunningStats.from_values([3, -1, 0, 8, -4])
    assert stats.min == -4
    assert stats.max == 8


def test_merge_moments():
    a = RunningStats.from_values([1, 2, 3])
    b = RunningStats.from_values([10, 20])
    merged = a.merge(b)
    whole = RunningStats.from_values([1, 2, 3, 10, 20])
    assert merged.count == 5
    assert merged.mean == pytest.approx(whole.mean)
    assert merged.variance == pytest.approx(whole.variance)


def test_empty_tracker_has_no_mean():
    assert RunningStats().mean is None
    assert RunningStats().variance is None
