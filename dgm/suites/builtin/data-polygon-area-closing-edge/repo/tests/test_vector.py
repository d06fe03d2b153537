import pytest

from geo2d import cross, distance


def test_distance():
    assert distance((1, 1), (4, 5)) == pytest.approx(5.0)


def test_cross():
    assert cross((1, 0), (0, 1)) == 1
    assert cross((0, 1), (1, 0)) == -1
