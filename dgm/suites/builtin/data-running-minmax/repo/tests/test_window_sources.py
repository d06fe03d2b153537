from streamstats import read_readings, sliding_max, sliding_min


def test_sliding_extremes():
    data = [1, 3, -1, -3, 5, 3, 6, 7]
    assert sliding_max(data, 3) == [3, 3, 5, 5, 6, 7]
    assert sliding_min(data, 3) == [-1, -3, -3, -3, 3, 3]


def test_read_readings():
    lines = ["# sensor 4", "12.5", "", "nan", "13.0  # recalibrated"]
    assert list(read_readings(lines)) == [12.5, 13.0]
