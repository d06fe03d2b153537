"""Binary run-length format: a sequence of (count, byte) byte pairs.

Counts are 1..255; longer runs are split into several pairs.
"""

from .errors import DecodeError
from .runs import runs

MAX_RUN = 255


def encode_bytes(data: bytes) -> bytes:
    out = bytearray()
    for byte, count in runs(data):
        while count > 0:
            chunk = min(count, MAX_RUN)
            out += bytes((chunk, byte))
            count -= chunk
    return bytes(out)


def decode_bytes(data: bytes) -> bytes:
    if len(data) % 2:
        raise DecodeError("binary RLE data must have an even length")
    out = bytearray()
    for i in range(0, len(data), 2):
        count, byte = data[i], data[i + 1]
        if count == 0:
            raise DecodeError(f"zero run length at offset {i}")
        out += bytes((byte,)) * count
    return bytes(out)
