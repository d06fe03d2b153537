import pytest

from featscale import MinMaxScaler, StandardScaler, minmax, zscore


def test_zscore_of_constant_values():
    assert zscore([7, 7, 7]) == [0.0, 0.0, 0.0]
    assert zscore([2.5]) == [0.0]


def test_minmax_of_constant_values():
    assert minmax([3, 3, 3, 3]) == [0.0, 0.0, 0.0, 0.0]
    assert minmax([42], feature_range=(-1, 1)) == [-1.0]
    assert minmax([5, 5], feature_range=(2, 10)) == [2.0, 2.0]


def test_standard_scaler_with_constant_column():
    table = [[1, 1, 10], [1, 2, 20], [1, 3, 30]]
    scaler = StandardScaler()
    scaled = scaler.fit_transform(table)
    assert [row[0] for row in scaled] == [0.0, 0.0, 0.0]
    assert [row[1] for row in scaled] == pytest.approx([-1.224744871, 0, 1.224744871])
    assert [row[2] for row in scaled] == pytest.approx([-1.224744871, 0, 1.224744871])
    # a zero spread is treated as 1: new data is only centred
    assert scaler.transform([[4, 2, 20]])[0] == pytest.approx([3.0, 0.0, 0.0])
    assert scaler.inverse_transform(scaled) == [pytest.approx(row) for row in table]


def test_minmax_scaler_with_constant_column():
    table = [[0, 5], [10, 5], [5, 5]]
    scaler = MinMaxScaler(feature_range=(-1, 1))
    scaled = scaler.fit_transform(table)
    assert scaled == [pytest.approx([-1.0, -1.0]), pytest.approx([1.0, -1.0]), pytest.approx([0.0, -1.0])]
    # a zero spread is treated as 1
    assert scaler.transform([[10, 7], [0, 4]]) == [pytest.approx([1.0, 3.0]), pytest.approx([-1.0, -3.0])]


def test_single_row_table():
    assert StandardScaler().fit_transform([[3, -4]]) == [[0.0, 0.0]]
    assert MinMaxScaler().fit_transform([[3, -4]]) == [[0.0, 0.0]]


def test_varying_columns_unchanged():
    assert zscore([1, 3]) == pytest.approx([-1, 1])
    assert minmax([0, 2, 4]) == pytest.approx([0, 0.5, 1])
