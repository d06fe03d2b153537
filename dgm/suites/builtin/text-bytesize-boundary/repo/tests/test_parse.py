import pytest

from humansize import SizeError, parse_size


def test_plain_numbers_are_bytes():
    assert parse_size("512") == 512
    assert parse_size(" 7 B ") == 7


def test_units():
    assert parse_size("1.5 kB") == 1500
    assert parse_size("10MB") == 10_000_000
    assert parse_size("2 KiB") == 2048
    assert parse_size("1.5 GiB") == 1536 * 1024**2
    assert parse_size("3k") == 3000


def test_bad_input():
    for text in ("", "abc", "1.2.3 MB", "5 XB", "-1 MB"):
        with pytest.raises(SizeError):
            parse_size(text)
