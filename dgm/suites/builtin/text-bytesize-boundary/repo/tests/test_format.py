from humansize import naturalsize


def test_small_sizes_are_plain_bytes():
    assert naturalsize(0) == "0 B"
    assert naturalsize(1) == "1 B"
    assert naturalsize(999) == "999 B"
    assert naturalsize(1023, binary=True) == "1023 B"


def test_decimal_units():
    assert naturalsize(1500) == "1.5 kB"
    assert naturalsize(123_456_789) == "123.5 MB"
    assert naturalsize(5_300_000_000) == "5.3 GB"


def test_binary_units():
    assert naturalsize(1536, binary=True) == "1.5 KiB"
    assert naturalsize(3 * 1024**3 + 512 * 1024**2, binary=True) == "3.5 GiB"


def test_precision():
    assert naturalsize(1234567, precision=3) == "1.235 MB"
    assert naturalsize(1536, binary=True, precision=0) == "2 KiB"


def test_negative_sizes():
    assert naturalsize(-1500) == "-1.5 kB"
    assert naturalsize(-12) == "-12 B"
