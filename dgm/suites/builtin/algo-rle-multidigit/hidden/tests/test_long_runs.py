import pytest

from rlecodec import DecodeError, decode, encode


def test_decode_two_digit_count():
    assert decode("12a3b") == "a" * 12 + "bbb"
    assert decode("10x") == "x" * 10


def test_decode_large_counts():
    assert decode("250-1|100=") == "-" * 250 + "|" + "=" * 100


def test_roundtrip_with_long_runs():
    for text in ["a" * 10, "ab" + "c" * 99 + "d", "=" * 1000 + "x" * 11 + "y", "mississippi", "  \t\t\n"]:
        assert decode(encode(text)) == text


def test_encode_long_run_format():
    assert encode("z" * 15 + "y") == "15z1y"
    assert decode("15z1y") == "z" * 15 + "y"


def test_malformed_input_still_rejected():
    for bad in ["12", "a12", "12a3", "3"]:
        with pytest.raises(DecodeError):
            decode(bad)


def test_short_runs_unchanged():
    assert decode("") == ""
    assert decode("1a1b1c") == "abc"
    assert decode("9z") == "z" * 9
