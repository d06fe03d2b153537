import pytest

from featscale import columns, rows


def test_round_trip():
    table = [[1, 2], [3, 4], [5, 6]]
    assert columns(table) == [[1, 3, 5], [2, 4, 6]]
    assert rows(columns(table)) == table


def test_ragged_rows_rejected():
    with pytest.raises(ValueError):
        columns([[1, 2], [3]])
