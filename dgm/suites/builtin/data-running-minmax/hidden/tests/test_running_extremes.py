import pytest

from streamstats import RunningStats, read_readings


def test_all_positive_stream():
    stats = RunningStats.from_values([12.5, 13.1, 11.8])
    assert stats.min == 11.8
    assert stats.max == 13.1


def test_all_negative_stream():
    stats = RunningStats.from_values([-3, -7, -5])
    assert stats.max == -3
    assert stats.min == -7


def test_single_value():
    stats = RunningStats()
    stats.update(42)
    assert stats.min == 42
    assert stats.max == 42
    assert stats.as_dict() == {"count": 1, "mean": 42.0, "stdev": None, "min": 42.0, "max": 42.0}


def test_empty_tracker_has_no_extremes():
    stats = RunningStats()
    assert stats.min is None
    assert stats.max is None
    assert stats.as_dict() == {"count": 0, "mean": None, "stdev": None, "min": None, "max": None}


def test_merge_shards():
    shards = [[5.0, 6.5], [7.25, 9.0, 8.0], [10.5]]
    merged = RunningStats()
    for shard in shards:
        merged = merged.merge(RunningStats.from_values(shard))
    assert merged.count == 6
    assert merged.min == 5.0
    assert merged.max == 10.5
    assert merged.mean == pytest.approx(46.25 / 6)


def test_merge_with_empty_tracker():
    full = RunningStats.from_values([-2, -9])
    for merged in (full.merge(RunningStats()), RunningStats().merge(full), full + RunningStats()):
        assert (merged.count, merged.min, merged.max) == (2, -9, -2)
        assert merged.mean == pytest.approx(-5.5)
    empty = RunningStats().merge(RunningStats())
    assert (empty.count, empty.min, empty.max) == (0, None, None)


def test_readings_from_log():
    lines = ["# boiler", "71.5", "73.0", "nan", "70.25"]
    stats = RunningStats.from_values(read_readings(lines))
    assert (stats.min, stats.max) == (70.25, 73.0)


def test_mixed_signs_unchanged():
    stats = RunningStats.from_values([0, -1.5, 2.5])
    assert (stats.min, stats.max) == (-1.5, 2.5)
