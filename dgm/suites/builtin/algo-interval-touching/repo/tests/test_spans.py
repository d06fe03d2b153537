import pytest

from spans import Interval, format_interval, free_slots, merge, parse_interval, total_length


def test_merge_overlapping():
    assert merge([Interval(1, 5), Interval(2, 8), Interval(10, 12)]) == [Interval(1, 8), Interval(10, 12)]


def test_merge_sorts_input_and_accepts_tuples():
    assert merge([(20, 25), (1, 3), (2, 4)]) == [Interval(1, 4), Interval(20, 25)]


def test_merge_nested():
    assert merge([Interval(0, 100), Interval(10, 20), Interval(30, 40)]) == [Interval(0, 100)]


def test_merge_empty():
    assert merge([]) == []


def test_total_length_counts_overlap_once():
    assert total_length([Interval(0, 10), Interval(5, 15)]) == 15


def test_overlaps_is_closed():
    assert Interval(1, 3).overlaps(Interval(3, 4))
    assert not Interval(1, 3).overlaps(Interval(4, 5))


def test_invalid_interval():
    with pytest.raises(ValueError):
        Interval.of(5, 1)


def test_free_slots():
    busy = [parse_interval("09:00-10:00"), parse_interval("12:00-13:30")]
    day = parse_interval("08:00-18:00")
    assert [format_interval(s) for s in free_slots(busy, day)] == ["08:00-09:00", "10:00-12:00", "13:30-18:00"]
    assert [format_interval(s) for s in free_slots(busy, day, min_length=180)] == ["13:30-18:00"]


def test_parse_and_format_roundtrip():
    assert parse_interval("09:30-11:00") == Interval(570, 660)
    assert format_interval(Interval(570, 660)) == "09:30-11:00"
    with pytest.raises(ValueError):
        parse_interval("9h-10h")
