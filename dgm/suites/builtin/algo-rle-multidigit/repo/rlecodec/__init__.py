"""Run-length encoding for sequences, text and bytes."""

from .binary import decode_bytes, encode_bytes
from .errors import DecodeError
from .runs import expand, runs
from .text import decode, encode

__all__ = ["DecodeError", "decode", "decode_bytes", "encode", "encode_bytes", "expand", "runs"]
