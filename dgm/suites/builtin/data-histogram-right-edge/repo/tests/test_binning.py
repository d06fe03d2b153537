import pytest

from histo import bin_edges, histogram


def test_bin_edges():
    assert bin_edges(0, 10, 5) == [0, 2, 4, 6, 8, 10]


def test_bins_must_be_positive():
    with pytest.raises(ValueError):
        bin_edges(0, 1, 0)


def test_explicit_range_inside():
    counts, edges = histogram([0.5, 1.5, 2.5, 2.7, 3.9], bins=4, range=(0, 4))
    assert counts == [1, 1, 2, 1]
    assert edges == [0, 1, 2, 3, 4]


def test_values_below_range_ignored():
    counts, _ = histogram([-1, 0, 1], bins=2, range=(0, 4))
    assert counts == [2, 0]
