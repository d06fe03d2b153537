import pytest

from rollstat import Series


def test_index_and_lookup():
    s = Series([1, 2, 3], index=["a", "b", "c"])
    assert s["b"] == 2.0
    assert len(s) == 3


def test_dropna_and_fillna():
    s = Series([1, None, 3])
    assert s.dropna().index == [0, 2]
    assert s.fillna(0).to_list() == [1.0, 0.0, 3.0]


def test_index_length_checked():
    with pytest.raises(ValueError):
        Series([1, 2], index=["a"])
