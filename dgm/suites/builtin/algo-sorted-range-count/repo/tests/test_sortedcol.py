import bisect

import pytest

from sortedcol import SortedList, lower_bound, median, percentile_rank, upper_bound


def test_bounds_match_bisect():
    data = [1, 2, 2, 2, 5, 7, 7, 9]
    for x in range(0, 11):
        assert lower_bound(data, x) == bisect.bisect_left(data, x)
        assert upper_bound(data, x) == bisect.bisect_right(data, x)


def test_bounds_with_lo_hi():
    data = [1, 3, 3, 3, 8]
    assert lower_bound(data, 3, lo=2) == 2
    assert upper_bound(data, 3, hi=3) == 3


def test_add_keeps_order_and_duplicates():
    s = SortedList([5, 1, 3])
    s.add(3)
    s.add(0)
    assert list(s) == [0, 1, 3, 3, 5]
    assert s.count(3) == 2
    assert 5 in s and 4 not in s


def test_remove_one_occurrence():
    s = SortedList([2, 2, 4])
    s.remove(2)
    assert list(s) == [2, 4]
    assert not s.discard(7)
    with pytest.raises(ValueError):
        s.remove(3)


def test_index():
    s = SortedList([4, 1, 4, 9])
    assert s.index(4) == 1
    with pytest.raises(ValueError):
        s.index(5)


def test_irange_inclusive():
    s = SortedList([1, 3, 5, 7, 9])
    assert list(s.irange(3, 7)) == [3, 5, 7]
    assert list(s.irange(4, 8)) == [5, 7]


def test_count_range_between_values():
    s = SortedList([1, 3, 5, 7, 9])
    assert s.count_range(2, 8) == 3
    assert s.count_range(8, 2) == 0


def test_summary():
    s = SortedList([4, 1, 3, 2])
    assert median(s) == 2.5
    s.add(10)
    assert median(s) == 3
    assert percentile_rank(s, 3) == 40.0
    with pytest.raises(ValueError):
        median(SortedList())
