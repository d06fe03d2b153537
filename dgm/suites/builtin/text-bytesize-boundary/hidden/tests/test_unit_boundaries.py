import pytest

from humansize import naturalsize, parse_size


@pytest.mark.parametrize(
    "num_bytes, expected",
    [(1000, "1.0 kB"), (10**6, "1.0 MB"), (10**9, "1.0 GB"), (10**12, "1.0 TB"),
     (10**15, "1.0 PB"), (5 * 10**6, "5.0 MB")],
    ids=["kB", "MB", "GB", "TB", "PB", "5MB"],
)
def test_exact_decimal_units(num_bytes, expected):
    assert naturalsize(num_bytes) == expected


@pytest.mark.parametrize(
    "num_bytes, expected",
    [(1024, "1.0 KiB"), (1024**2, "1.0 MiB"), (1024**3, "1.0 GiB"),
     (1024**4, "1.0 TiB"), (1024**5, "1.0 PiB"), (4 * 1024**3, "4.0 GiB")],
    ids=["KiB", "MiB", "GiB", "TiB", "PiB", "4GiB"],
)
def test_exact_binary_units(num_bytes, expected):
    assert naturalsize(num_bytes, binary=True) == expected


def test_negative_boundaries():
    assert naturalsize(-1000) == "-1.0 kB"
    assert naturalsize(-(1024**2), binary=True) == "-1.0 MiB"


def test_boundaries_with_precision():
    assert naturalsize(10**6, precision=2) == "1.00 MB"
    assert naturalsize(1024, binary=True, precision=0) == "1 KiB"


def test_formatted_boundaries_parse_back():
    for power in range(1, 6):
        assert parse_size(naturalsize(1000**power)) == 1000**power
        assert parse_size(naturalsize(1024**power, binary=True)) == 1024**power


def test_neighbours_of_boundaries_unchanged():
    assert naturalsize(999) == "999 B"
    assert naturalsize(1001) == "1.0 kB"
    assert naturalsize(1023, binary=True) == "1023 B"
    assert naturalsize(1025, binary=True) == "1.0 KiB"
    assert naturalsize(1_500_000) == "1.5 MB"


def test_largest_unit_is_the_cap():
    assert naturalsize(10**18) == "1000.0 PB"
    assert naturalsize(2048 * 1024**5, binary=True) == "2048.0 PiB"
