import pytest

from featscale import MinMaxScaler, StandardScaler, minmax, zscore


def test_zscore():
    assert zscore([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx([-1.5, -0.5, -0.5, -0.5, 0, 0, 1, 2])


def test_minmax_custom_range():
    assert minmax([10, 15, 20], feature_range=(-1, 1)) == pytest.approx([-1, 0, 1])


def test_standard_scaler_round_trip():
    table = [[1, 10], [2, 20], [3, 60]]
    scaler = StandardScaler()
    scaled = scaler.fit_transform(table)
    assert [row[0] for row in scaled] == pytest.approx([-1.224744871, 0, 1.224744871])
    back = scaler.inverse_transform(scaled)
    assert back[2] == pytest.approx([3, 60])


def test_minmax_scaler_applies_training_range():
    scaler = MinMaxScaler().fit([[0, 5], [10, 15]])
    assert scaler.transform([[5, 20]]) == [pytest.approx([0.5, 1.5])]


def test_column_count_checked():
    scaler = StandardScaler().fit([[1, 2], [3, 4]])
    with pytest.raises(ValueError):
        scaler.transform([[1, 2, 3]])
