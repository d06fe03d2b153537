import itertools

from sortedcol import SortedList


READINGS = [10, 12, 15, 15, 15, 18, 20, 20, 20, 20, 25, 30, 30]


def test_upper_bound_value_is_included():
    s = SortedList(READINGS)
    assert s.count_range(10, 20) == 10
    assert s.count_range(15, 15) == 3
    assert s.count_range(20, 30) == 7


def test_count_range_agrees_with_irange():
    s = SortedList(READINGS)
    for lo, hi in itertools.product(range(8, 33), repeat=2):
        expected = sum(1 for v in READINGS if lo <= v <= hi)
        assert len(list(s.irange(lo, hi))) == expected, (lo, hi)
        assert s.count_range(lo, hi) == expected, (lo, hi)


def test_single_value_range_equals_count():
    s = SortedList(["b", "a", "c", "b", "b", "d"])
    for letter in "abcdez":
        assert s.count_range(letter, letter) == s.count(letter)


def test_count_range_after_updates():
    s = SortedList()
    s.update([3, 3, 1, 3, 7])
    assert s.count_range(1, 3) == 4
    s.remove(3)
    assert s.count_range(3, 7) == 3
    s.add(7)
    assert s.count_range(7, 7) == 2


def test_empty_and_reversed_ranges():
    assert SortedList().count_range(0, 100) == 0
    s = SortedList(READINGS)
    assert s.count_range(21, 19) == 0
    assert s.count_range(31, 40) == 0
    assert s.count_range(0, 9) == 0
