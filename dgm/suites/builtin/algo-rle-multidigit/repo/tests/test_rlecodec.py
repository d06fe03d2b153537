import pytest

from rlecodec import DecodeError, decode, decode_bytes, encode, encode_bytes, expand, runs


def test_runs_and_expand():
    assert runs([1, 1, 2, 1]) == [(1, 2), (2, 1), (1, 1)]
    assert expand([("x", 2), ("y", 1)]) == ["x", "x", "y"]
    assert runs("") == []


def test_encode_text():
    assert encode("aaab") == "3a1b"
    assert encode("") == ""
    assert encode("  !!") == "2 2!"


def test_encode_rejects_digits():
    with pytest.raises(ValueError):
        encode("a1")


def test_decode_text():
    assert decode("3a1b") == "aaab"
    assert decode("2 2!") == "  !!"


def test_decode_malformed():
    with pytest.raises(DecodeError):
        decode("a3")
    with pytest.raises(DecodeError):
        decode("3a4")


def test_bytes_roundtrip_and_long_runs():
    data = b"\x00" * 300 + b"ab"
    encoded = encode_bytes(data)
    assert encoded == bytes((255, 0, 45, 0, 1, 97, 1, 98))
    assert decode_bytes(encoded) == data


def test_decode_bytes_malformed():
    with pytest.raises(DecodeError):
        decode_bytes(b"\x01")
    with pytest.raises(DecodeError):
        decode_bytes(b"\x00a")
